package markdown

// The UI process links dialogs/internal/native, which gives the symbol font
// Fyne falls back to a space as it starts (without it a space after an
// arrow draws as U+FFFD): so do these tests, whose images show what the
// app shows.
import _ "feedback/dialogs/internal/native"
