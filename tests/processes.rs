//! No process outlives its test, whatever the test does (`setsid`, double forks) and
//! however hdd ends (normally, Ctrl-C, SIGTERM, SIGHUP, SIGKILL); no temporary folder is
//! left behind.
