// Package wire holds the types every part of feedback exchanges — a
// Question with its prompts and options, an Answer with its replies and
// images, the Error codes, and Ask, one caller's request for a question —
// and their validation. It does no I/O: ipc carries them over the socket,
// store keeps them, dialogs shows them and the MCP shim builds them.
package wire
