"""Running bot tournaments: the schedule driven over a worker pool (or a live
server's tables, for remote bots), progress, stored results, plots, the page."""
