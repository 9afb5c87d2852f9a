"""The benchmarks' throwaway PostgreSQL databases."""


def recreate_postgres(url: str) -> None:
    """Drop the database ``url`` names (closing its connections) and create it empty."""
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(base + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
