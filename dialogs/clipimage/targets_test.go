package clipimage

import "testing"

func TestChooseTarget(t *testing.T) {
	tests := []struct {
		name    string
		offered []string
		target  string // "" means no image
		mime    string
	}{
		{"nothing offered", nil, "", ""},
		{"text only", []string{"TARGETS", "TIMESTAMP", "UTF8_STRING", "STRING", "TEXT", "text/plain;charset=utf-8"}, "", ""},
		{"png only", []string{"TARGETS", "image/png"}, "image/png", "image/png"},
		{"jpeg only", []string{"TARGETS", "image/jpeg"}, "image/jpeg", "image/jpeg"},
		{"png preferred over jpeg listed first", []string{"image/jpeg", "image/png"}, "image/png", "image/png"},
		{"browser copy image", []string{"TIMESTAMP", "TARGETS", "MULTIPLE", "text/html", "image/png", "SAVE_TARGETS"}, "image/png", "image/png"},
		{"gtk pixbuf offer", []string{"TIMESTAMP", "TARGETS", "MULTIPLE", "image/avif", "image/bmp", "image/ico", "image/jpeg", "image/png", "image/tiff", "image/x-bmp", "image/x-MS-bmp", "image/x-icon", "image/x-ico", "image/x-win-bitmap"}, "image/png", "image/png"},
		{"jpeg over bmp tiff webp gif", []string{"image/gif", "image/webp", "image/tiff", "image/bmp", "image/jpeg"}, "image/jpeg", "image/jpeg"},
		{"bmp over tiff", []string{"image/tiff", "image/bmp"}, "image/bmp", "image/bmp"},
		{"tiff over webp", []string{"image/webp", "image/tiff"}, "image/tiff", "image/tiff"},
		{"webp over gif", []string{"image/gif", "image/webp"}, "image/webp", "image/webp"},
		{"gif alone", []string{"image/gif"}, "image/gif", "image/gif"},
		{"canonical name over alias", []string{"image/x-MS-bmp", "image/bmp"}, "image/bmp", "image/bmp"},
		{"alias alone, requested as offered", []string{"image/x-MS-bmp"}, "image/x-MS-bmp", "image/bmp"},
		{"jpg alias", []string{"image/jpg"}, "image/jpg", "image/jpeg"},
		{"case and space ignored", []string{" Image/PNG "}, " Image/PNG ", "image/png"},
		{"parameters ignored", []string{"image/png;charset=binary"}, "image/png;charset=binary", "image/png"},
		{"unsupported image types ignored", []string{"image/svg+xml", "image/avif", "image/x-icon"}, "", ""},
		{"not fooled by prefixes", []string{"image/pngx", "ximage/png", "image/"}, "", ""},
		{"wl-paste output with trailing empty line", []string{"text/plain", "image/png", ""}, "image/png", "image/png"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target, mime, ok := chooseTarget(tt.offered)
			if ok != (tt.target != "") || target != tt.target || mime != tt.mime {
				t.Errorf("chooseTarget(%q) = %q, %q, %v; want %q, %q", tt.offered, target, mime, ok, tt.target, tt.mime)
			}
		})
	}
}
