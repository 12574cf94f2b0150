package markdown

import (
	"io/fs"
	"testing"

	"feedback/internal/i18n"
)

// Why an image is not shown, and sizes, read in the process's language.
func TestImageNotesInChinese(t *testing.T) {
	t.Cleanup(func() { i18n.Use(i18n.English) })
	if got := formatBytes(1); got != "1 byte" {
		t.Errorf("formatBytes(1) = %q", got)
	}
	i18n.Use(i18n.SimplifiedChinese)
	p := &PictureSegment{Alt: "架构图", Refused: describeImageError(fs.ErrNotExist)}
	if got := p.noteText(); got != "架构图（图片未显示：文件不存在）" {
		t.Errorf("note %q", got)
	}
	if got := formatBytes(812); got != "812 字节" {
		t.Errorf("formatBytes(812) = %q", got)
	}
}
