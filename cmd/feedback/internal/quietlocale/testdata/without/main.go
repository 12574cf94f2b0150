// Command without links Fyne's lang package and nothing else: under
// LANG=C.UTF-8 its init logs "Fyne error: Error parsing user locale C".
package main

import _ "fyne.io/fyne/v2/lang"

func main() {}
