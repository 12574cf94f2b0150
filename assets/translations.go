package assets

import "embed"

// Translations holds the words the app shows, one JSON file per language
// in translations/: en.json, zh-Hans.json and zh-Hant.json, in
// go-i18n's format (an id to a text, or to its plural forms "one" and
// "other"; templates as in text/template: "{{.Count}} min"). Package i18n
// reads them for every process; the UI process gives them to Fyne's lang
// package as well, for Fyne's own words (Copy, Paste, …, kept in the files
// under Fyne's ids).
//
//go:embed translations/*.json
var Translations embed.FS
