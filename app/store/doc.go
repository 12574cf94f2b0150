// Package store persists questions, drafts and answers in a small SQLite
// database in the user's data directory (modernc.org/sqlite, pure Go), so
// that nothing the user typed or answered is lost to a crash, a restart or
// an agent that stopped waiting. It also feeds the history view.
//
// # Lifecycle
//
// A question is saved when it opens (SaveQuestion), its draft as the user
// types (SaveDraft), and its outcome when it ends (SaveAnswer, which clears
// the draft) or when its callers go away (MarkWithdrawn, which keeps the
// draft for a caller that asks again). An answer given while nobody waited
// is saved with delivered=false; Undelivered finds it when the question is
// asked again and MarkDelivered retires it. A question kept open for a
// caller that comes back is marked so (SetKeptOpen); a second window of a
// question already open under the same id is saved with the id its callers
// ask with (SaveQuestionAs), and Undelivered finds its answer under that
// id. After a crash, LeftOpen lists the questions that were still open
// (the app shows the kept-open ones again and withdraws the rest) and
// Draft restores what the user had typed.
//
// Notes the user writes for an agent wait in their own table (AddNote, at
// most wire.MaxPendingNotes of 4 KiB) until the next outcome delivered to
// that client takes them (TakeNotes, read and deleted in one transaction).
//
// # Failure contract for the caller
//
// Persistence is a safety net, never a reason to stop working:
//
//   - Open survives a corrupt file: it moves it aside (with its -wal and
//     -shm files) to <path>.corrupt-<UTC timestamp>, logs a warning naming
//     the moved file, and returns a working Store on a fresh database.
//   - Open fails when the database is locked by another process beyond
//     BusyTimeout (errors.Is(err, ErrLocked)), when it was written by a newer
//     version of the app (ErrNewerSchema), or on any I/O error. The caller
//     then logs the error once and runs without persistence; it does not
//     retry in a loop and does not delete the file.
//   - A method that fails later (the file locked by another process, the disk
//     full) returns a wrapped error and changes nothing; errors.Is works with
//     ErrLocked, ErrCorrupt and ErrNotFound. The caller logs it and carries
//     on with its in-memory state. No method panics.
//
// A nil *Store is a store that keeps nothing: every method does nothing and
// returns zero values and a nil error, so a caller whose Open failed can
// keep calling it.
//
// A Store is safe for concurrent use. Its methods block for at most about
// BusyTimeout on a lock held by another process, so call them off the GUI
// goroutine.
//
// # Schema
//
// Times are UTC unix milliseconds. Each ask of a question is one row in
// questions (its JSON plus indexed columns): the latest under the
// question's id, each earlier one that ended with a delivered outcome
// under "<id>#<n>" with round_of = id (History lists them all); drafts and answers hold the replies as
// JSON, one row per question; images live as BLOBs in their own table,
// keyed by (question id, kind, index) with kind "draft" or "answer". The
// schema version is PRAGMA user_version; migrations lists the steps, so a
// later version appends a step and never edits an old one.
package store
