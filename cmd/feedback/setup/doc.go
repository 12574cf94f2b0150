// Package setup writes feedback into MCP clients' configuration files
// (`feedback setup <client>`), lists the clients found on this machine
// (`feedback setup`), installs or removes the start-at-login entry
// (`feedback setup autostart`) and prints the SSH forwarding recipe
// (`feedback setup ssh HOST`).
//
// # Editing other programs' files
//
// A client's file is edited, never rewritten from a template: the file is
// parsed, only the feedback entry is added or changed, and everything else
// (other servers, unknown keys, comments, the file's indentation) stays as
// it was. JSON files are handled as JSON with comments and trailing commas
// (github.com/tailscale/hujson), which VS Code's and Cursor's files may
// hold; a file that was plain JSON stays plain JSON. Codex's TOML is edited
// with the byte ranges reported by go-toml's parser
// (github.com/pelletier/go-toml/v2/unstable): no TOML library for Go both
// decodes and re-encodes with comments kept, so the edit replaces or
// inserts only the feedback table's lines, with values encoded by go-toml.
// Either way the result is parsed back and compared with the original: if
// anything but the feedback entry differs, nothing is written.
//
// Before a file changes it is copied next to itself with a time-stamped
// .bak suffix; it is then replaced atomically (a temporary file renamed
// over it), keeping its permissions and following a symbolic link to the
// real file. Running the same setup twice changes nothing the second time
// and says so.
package setup
