//go:build !linux

package ui

// nameProcess does nothing: the process already has its binary's name.
func nameProcess() {}
