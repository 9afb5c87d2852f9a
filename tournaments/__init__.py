"""Bot tournaments (the Django app labelled ``gameplay``): entrants, scheduled tables, batches
played on Celery workers, outside bots and their faults. Built on the league: each tournament
plays in a season of its club."""
