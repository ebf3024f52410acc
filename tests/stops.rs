//! hdd is never stuck: a stop request (Ctrl-C, SIGTERM) is obeyed within a second in
//! every phase (parsing a big input, generating candidates, the checks around the
//! reduction), and the best result so far stays on disk.
