// Command withfix is testdata/without with quietlocale imported, as
// cmd/feedback imports it.
package main

import (
	_ "feedback/cmd/feedback/internal/quietlocale"
	_ "fyne.io/fyne/v2/lang"
)

func main() {}
