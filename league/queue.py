"""Sending a Celery task by its name.

A service sends tasks whose bodies call services again; naming the task instead of importing
it keeps ``services`` and ``tasks`` from importing each other. Each app imports its tasks module
when Django starts (``AppConfig.ready``), so a process running tasks eagerly (no broker
configured) finds them registered.
"""

from celery import current_app, current_task


def send(name: str, *args, **options):
    """Send task ``name`` with ``args``; ``options`` as Celery's ``apply_async`` takes them."""
    return current_app.tasks[name].apply_async(args, **options)


def current_queue() -> str | None:
    """Inside a task run by a worker, the queue it came from (so work it sends on stays on that
    queue); None elsewhere."""
    request = getattr(current_task, "request", None)
    if current_task and request is not None and not request.is_eager:
        return (request.delivery_info or {}).get("routing_key")
    return None


def eager() -> bool:
    """Whether tasks run in this process as they are sent (no broker configured)."""
    return current_app.conf.task_always_eager
