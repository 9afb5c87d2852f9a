import pytest

from tests.sandbox.games import SECRET


@pytest.fixture(autouse=True)
def secrets_in_environment(monkeypatch):
    """The worker's secrets, which no bot may see."""
    monkeypatch.setenv("SECRET_KEY", SECRET)
    monkeypatch.setenv("DATABASE_URL", f"postgres://league:{SECRET}@127.0.0.1:5432/league")
