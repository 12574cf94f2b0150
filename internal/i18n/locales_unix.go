//go:build !windows && !darwin

package i18n

import "os"

// Locales is the OS's locales, most preferred first: on Unix the
// environment's (FromEnv).
func Locales() []string { return FromEnv(os.Getenv) }
