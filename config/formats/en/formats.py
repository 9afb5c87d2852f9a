# Dates as the pages write them by hand ("27 Nov 2026"), for a date shown without a format of
# its own too (Django's English default is "Nov. 27, 2026"). FORMAT_MODULE_PATH reads this.
DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y, H:i"
