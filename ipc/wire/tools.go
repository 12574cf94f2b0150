package wire

// ToolNames returns the names of the MCP tools the shim can offer, in the
// order its tools/list shows them: for the Settings window's choice of
// tools, which runs in the UI process and so must not link the MCP server.
// The shim's own table (mcpshim.ToolNames) is held to it by a test.
func ToolNames() []string {
	return []string{"interactive_feedback", "ask_human", "ask_human_result", "user_interact", "ask_user_question",
		"ask_choice", "ask_confirm", "ask_text", "ask_multi_select", "notify", "permission_prompt"}
}
