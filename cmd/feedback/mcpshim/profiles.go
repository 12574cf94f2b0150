package mcpshim

import (
	"strings"
	"time"

	"feedback/internal/settings"
)

// A waitProfile is how long one family of MCP clients lets a tool call run
// before it gives up on it. The shim returns the dialect's "not answered
// yet — call again" result before that, while the window stays open.
type waitProfile struct {
	// match are lower-case substrings of initialize's clientInfo.name.
	match []string
	wait  time.Duration
	// why is the evidence behind the number.
	why string
}

// defaultWait is the wait of a client that no profile matches: under the
// 60 s request timeout of the TypeScript MCP SDK, which most clients use
// and which progress notifications reset only when the caller opted in.
const defaultWait = 50 * time.Second

// waitProfiles is the table of known clients, first match wins (so
// "cursor-vscode" is Cursor, not VS Code). The numbers stay well under
// each client's documented or observed limit; where a limit is not known,
// the client gets defaultWait. See the package comment for the table.
var waitProfiles = []waitProfile{
	{[]string{"claude-code"}, 30 * time.Minute, "stdio calls have no per-request timer; MCP_TOOL_TIMEOUT defaults to about 28 h"},
	{[]string{"claude-ai", "claude desktop"}, defaultWait, "Claude Desktop: stdio calls cancelled at about 60 s (anthropics/claude-code#63379), a 4 min hard cap in newer builds (#65643); not configurable"},
	{[]string{"cursor"}, defaultWait, "Cursor: no documented limit; assume the TypeScript SDK's 60 s"},
	{[]string{"visual studio code", "vscode"}, 4 * time.Minute, "VS Code (Copilot) cancels MCP calls after 5 min; progress does not extend it (microsoft/vscode#261734)"},
	{[]string{"copilot"}, defaultWait, "Copilot CLI and the JetBrains/Eclipse plugins time out at 60 s (microsoft/copilot-for-eclipse#322)"},
	{[]string{"codex"}, defaultWait, "Codex: tool_timeout_sec defaults to 60 s (docs/config.md); feedback setup codex raises it to 600 s and passes --wait 540"},
	{[]string{"gemini"}, 9 * time.Minute, "Gemini CLI: an MCP server's timeout defaults to 600 000 ms"},
	{[]string{"windsurf", "cascade"}, defaultWait, "Windsurf: no documented limit; assume 60 s"},
	{[]string{"cline", "roo"}, defaultWait, "Cline and Roo Code: a server's timeout defaults to 60 s (docs.cline.bot, docs.roocode.com); feedback setup raises it to 600 s and passes --wait 540"},
	{[]string{"zed"}, defaultWait, "Zed: context_server_timeout defaults to 60 s, at most 10 min (zed-industries/zed#45378)"},
	{[]string{"opencode"}, defaultWait, "opencode: calls time out at about 60 s unless experimental.mcp_timeout is raised (anomalyco/opencode#8701), capped at 5 min (#39584)"},
	{[]string{"goose"}, 25 * time.Second, "Goose: an extension's timeout defaults to 300 s (aaif-goose/goose#8295), but sessions kept the old 30 s default (#9100)"},
}

// clientWait returns how long a call from client may wait for the human
// before it returns "call again":
//  1. s.WaitSeconds for the client — a key that equals the name, or else
//     the longest key contained in it, case-insensitively, or else the key
//     "*" (`feedback mcp --wait`);
//  2. else the first profile of waitProfiles whose substring the name holds;
//  3. else defaultWait;
//
// then capped by s.MaxWaitSeconds (FEEDBACK_MAX_WAIT) when it is positive.
func clientWait(client string, s settings.Settings) time.Duration {
	name := strings.ToLower(strings.TrimSpace(client))
	wait, found := time.Duration(0), false
	best := -1
	for k, secs := range s.WaitSeconds {
		key := strings.ToLower(strings.TrimSpace(k))
		if key == "" || secs < 1 || (key != "*" && !strings.Contains(name, key)) {
			continue
		}
		rank := len(key)
		switch key {
		case name:
			rank = 1 << 30
		case "*":
			rank = 0 // every client, below any named one
		}
		if rank > best || (rank == best && time.Duration(secs)*time.Second < wait) {
			best, wait, found = rank, time.Duration(secs)*time.Second, true
		}
	}
	if !found {
		wait = profileWait(name)
	}
	if s.MaxWaitSeconds > 0 {
		wait = min(wait, time.Duration(s.MaxWaitSeconds)*time.Second)
	}
	return wait
}

// profileWait is the wait of the first profile matching name (lower case),
// else defaultWait.
func profileWait(name string) time.Duration {
	for _, p := range waitProfiles {
		for _, m := range p.match {
			if strings.Contains(name, m) {
				return p.wait
			}
		}
	}
	return defaultWait
}
