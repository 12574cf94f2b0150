//go:build !linux

package uiprocess

// nameProcess does nothing: the process already has its binary's name.
func nameProcess() {}
