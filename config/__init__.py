# Load the Celery app whenever Django starts, so @shared_task binds to it.
from .celery_app import app as celery_app

__all__ = ("celery_app",)
