"""What every app shares, below them all: sending tasks and recovering lost ones
(``queue``), and the API's shared pieces (``api``). Knows no app."""
