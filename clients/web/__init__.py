"""The browser client's files (HTML, scripts, styles, icons), served by the
server's static handler and shipped as package data."""
