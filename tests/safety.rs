//! The user's files are sacred: the original is never lost (an `-o` naming the input or
//! the test, a backup that exists, a full disk), someone else's edit is never overwritten,
//! and no panic reaches the user.
