package dialogs

import (
	"fyne.io/fyne/v2"

	"feedback/dialogs/internal/modal"
	"feedback/internal/i18n"
)

// askDiscard asks in win whether to throw away the user's reply
// (modal.AskDiscard: "Keep editing" is the safe default of every key).
func askDiscard(win fyne.Window, title, message string, discard func()) {
	modal.AskDiscard(win, modal.Discard{Title: title, Message: message, Keep: i18n.T("discard.keep"), Discard: i18n.T("discard.discard")}, discard, heavy)
}
