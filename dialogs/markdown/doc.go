// Package markdown renders the Markdown of a question for Fyne: goldmark
// parses GitHub-flavoured Markdown (tables, strikethrough, autolinks, task
// lists) and a tree walk with a style carried down turns it into rich-text
// segments (Segments); Widget shows them in a window.
//
// What it looks like, and why:
//   - Headings differ in size as well as weight (fyne's 24 and 18, then 16,
//     then bold body text), and links in them keep their size.
//   - Bold CJK is drawn a second time a device pixel over: Fyne draws CJK
//     from a system fallback font and never picks a bold face for it.
//     Text starting with a fallback-font character is drawn after a space of
//     its own font, so that it keeps the line's baseline (flow.go).
//   - ~~Struck~~ text keeps the text colour, with a line drawn through it
//     (StrikeSegment); fyne.TextStyle has no strikethrough.
//   - Task-list items show the theme's check box icon in place of the
//     bullet (TaskSegment); paragraphs keep half a line from the blocks
//     around them, items of a tight list excepted.
//   - A fenced code block indented under a list item, but by less than the
//     item's text, is put in the item (attachIndentedCode).
//
// Question content is hostile, and nothing in it may stall the Fyne
// goroutine, which draws every window:
//   - Raw HTML is shown as text, never interpreted; only http, https and
//     mailto destinations become clickable links.
//   - Images (image.go): data: URIs and local files only, never fetched
//     from the network. A file is read only when, its links resolved, it
//     lies inside the user's home directory with no hidden element (~/.ssh,
//     ~/.config… are never read), is a regular file (no FIFO, device or
//     /proc entry) of at most 16 MiB, checked before and after a
//     non-blocking open. Reading and decoding run off the Fyne goroutine
//     (two workers app-wide, 10 s each); the window shows a placeholder,
//     then the image, scaled down to the width and aligned with the text,
//     or the alt text with the reason. 16 images per question (one Pictures
//     shared by its prompts); the others show as their alt text.
//   - Text (flow.go): paragraphs and headings wrap in time linear in their
//     length (fyne's RichText wrapping is quadratic); a message longer than
//     48 KiB shows its first part and a "Show all" button that adds the rest
//     a part per turn of the event loop.
//   - Wide code blocks and tables scroll sideways only (SideScroll): the
//     mouse wheel over them scrolls the page around them (Options.Page).
//
// The goldens in testdata/ are rewritten by `go test ./dialogs/markdown -update`.
package markdown
