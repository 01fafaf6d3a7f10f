"""English dates and times as players read them: 29 Nov 2026, 7:30 am (Django's
own are American, 11/29/2026 and 7:30 a.m.). "am" and "pm" are the English
catalog's words for Django's "a.m." and "p.m." (locale/en). What is not set
here is Django's English (the input formats among them)."""

DATE_FORMAT = "j M Y"
SHORT_DATE_FORMAT = "j M Y"
TIME_FORMAT = "g:i a"
DATETIME_FORMAT = "j M Y, g:i a"
SHORT_DATETIME_FORMAT = "j M Y, g:i a"
MONTH_DAY_FORMAT = "j F"
YEAR_MONTH_FORMAT = "F Y"
