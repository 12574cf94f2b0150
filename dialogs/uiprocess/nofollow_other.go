//go:build !unix

package uiprocess

// oNoFollow: no such flag here (the Lstat before the open checks).
const oNoFollow = 0
