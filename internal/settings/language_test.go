package settings

import "testing"

// The default language is "auto" (the OS locale's, for what the user
// reads), so that an explicit "en" can be told apart from no choice; every
// language and auto validate, anything else names its field.
func TestLanguageAutoIsTheDefault(t *testing.T) {
	if got := Default().Language; got != Auto {
		t.Errorf("default language %q, want %q", got, Auto)
	}
	for _, l := range []string{Auto, English, SimplifiedChinese, TraditionalChinese} {
		s := Default()
		s.Language = l
		if errs := s.Validate(); len(errs) != 0 {
			t.Errorf("language %q: %v", l, errs)
		}
	}
	s := Default()
	s.Language = "zh"
	if errs := s.Validate(); len(errs) != 1 || errs[0].Field != "language" {
		t.Errorf("language \"zh\": %v, want one error naming language", errs)
	}
}
