package mcpshim

import (
	"strings"
	"time"

	"feedback/internal/settings"
)

// phrases are the fixed phrases of ask_user_question's result lines in one
// language (seed 001's response format). The Chinese forms use full-width
// punctuation exactly as the seed does: "用户选择了：A，B".
type phrases struct {
	selected string // prefix of a selection: "User selected: "
	listSep  string // between selected labels: ", "
	answered string // prefix of the user's own text: "User answered: "
	partSep  string // between the selection and the own text on one line: "; "
	declined string // the whole line of a question left unanswered
	timeout  string // the whole result when the window's countdown ran out
	pending  string // the whole result when the client's wait ran out, the window still open
	other    string // the label of the "Other" option offered in every question with options
}

// The phrase tables. zh-Hant is zh-Hans in traditional characters
// (character for character, as OpenCC s2t converts it: 用戶, not 使用者).
var (
	phrasesEnglish = phrases{
		selected: "User selected: ",
		listSep:  ", ",
		answered: "User answered: ",
		partSep:  "; ",
		declined: "User declined to answer the question.",
		timeout:  "The user did not answer before the question window timed out. " + nextStep(kindTimeout, "ask_user_question", nil, time.Time{}),
		pending:  "The user has not answered yet; the question window is still open. This is not an answer; call ask_user_question again with the same questions now to keep waiting.",
		other:    "Other",
	}
	phrasesSimplified = phrases{
		selected: "用户选择了：",
		listSep:  "，",
		answered: "用户回答：",
		partSep:  "；",
		declined: "用户拒绝回答问题。",
		timeout:  "用户尚未回答：提问窗口已超时。这不是回答；请再次调用 ask_user_question 重新提问。",
		pending:  "用户尚未回答：提问窗口仍然打开。这不是回答；请立即用相同的问题再次调用 ask_user_question 继续等待。",
		other:    "其他",
	}
	phrasesTraditional = phrases{
		selected: "用戶選擇了：",
		listSep:  "，",
		answered: "用戶回答：",
		partSep:  "；",
		declined: "用戶拒絕回答問題。",
		timeout:  "用戶尚未回答：提問窗口已超時。這不是回答；請再次調用 ask_user_question 重新提問。",
		pending:  "用戶尚未回答：提問窗口仍然打開。這不是回答；請立即用相同的問題再次調用 ask_user_question 繼續等待。",
		other:    "其他",
	}
)

// phrasesFor returns the phrases of a settings.Language; anything but the
// two Chinese languages is English.
func phrasesFor(lang string) phrases {
	switch lang {
	case settings.SimplifiedChinese:
		return phrasesSimplified
	case settings.TraditionalChinese:
		return phrasesTraditional
	default:
		return phrasesEnglish
	}
}

// selectedLine is "User selected: A, B".
func (p phrases) selectedLine(labels []string) string {
	return p.selected + strings.Join(labels, p.listSep)
}

// answeredLine is "User answered: text".
func (p phrases) answeredLine(text string) string {
	return p.answered + text
}

// mixedLine is a selection followed by the user's own text, for a
// multi-select question where "Other" was ticked beside other options:
// "User selected: A, B; User answered: text".
func (p phrases) mixedLine(labels []string, text string) string {
	return p.selectedLine(labels) + p.partSep + p.answeredLine(text)
}
