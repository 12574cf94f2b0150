package mcpshim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// checkOutput holds a tool's result to the letter of its declaration: a
// result with structuredContent comes from a tool that declares an
// outputSchema, and a tool that declares one returns, on every success
// (clients built on the TypeScript SDK reject one without it),
// structuredContent that the schema accepts. An isError result may carry
// anything. callCtx checks every result it returns.
func checkOutput(tool string, res *mcp.CallToolResult) error {
	if res == nil {
		return nil
	}
	var schema json.RawMessage
	found := false
	for _, d := range tools {
		if d.tool.Name == tool {
			schema, found = d.tool.RawOutputSchema, true
		}
	}
	if !found {
		return nil // an unknown tool: the call failed
	}
	switch {
	case len(schema) == 0 && res.StructuredContent != nil:
		return fmt.Errorf("%s returned structuredContent but declares no outputSchema", tool)
	case len(schema) == 0, res.IsError:
		return nil
	case res.StructuredContent == nil:
		return fmt.Errorf("%s declares an outputSchema but returned a success without structuredContent: %+v", tool, res.Content)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return fmt.Errorf("%s's outputSchema: %v", tool, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("output.json", doc); err != nil {
		return err
	}
	compiled, err := c.Compile("output.json")
	if err != nil {
		return fmt.Errorf("%s's outputSchema: %v", tool, err)
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return err
	}
	value, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	if err := compiled.Validate(value); err != nil {
		return fmt.Errorf("%s's structuredContent %s does not match its outputSchema: %v", tool, raw, err)
	}
	return nil
}

// Every tool that can return structuredContent declares an outputSchema
// whose type is an object (the letter of tools/list).
func TestOutputSchemasDeclared(t *testing.T) {
	for _, d := range tools {
		if d.tool.Name == "permission_prompt" {
			continue // answers Claude Code in its text: no structuredContent
		}
		var s struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(d.tool.RawOutputSchema, &s); err != nil || s.Type != "object" {
			t.Errorf("%s: outputSchema %s (%v), want an object schema", d.tool.Name, d.tool.RawOutputSchema, err)
		}
	}
}
