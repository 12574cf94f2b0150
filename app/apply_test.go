package app

import (
	"fmt"
	"log/slog"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"feedback/app/store"
	"feedback/internal/settings"
	"feedback/ipc/uiproto"
)

// handed records what apply handed each part of the app.
type handed map[string]any

func (h handed) SetLinger(d time.Duration)         { h["ui linger"] = d }
func (h handed) SetSleep(on bool)                  { h["ui sleep"] = on }
func (h handed) SetSettings(s uiproto.Settings)    { h["ui settings"] = s }
func (h handed) SetDefaultTimeout(d time.Duration) { h["default timeout"] = d }
func (h handed) SetSchedule(s string) error        { h["dnd schedule"] = s; return nil }
func (h handed) setAway(mode string, after time.Duration) {
	h["away"] = fmt.Sprint(mode, " after ", after)
}
func (h handed) setSound(on bool)         { h["sound"] = on }
func (h handed) Update(r store.Retention) { h["retention"] = r }

// applied is what apply hands the parts of the app for s.
func applied(s settings.Settings) handed {
	h := handed{}
	var prewarm atomic.Bool
	live{ui: h, questions: h, dnd: h, away: h, sound: h, retain: h, prewarm: &prewarm, log: slog.New(slog.DiscardHandler)}.apply(s)
	h["prewarm"] = prewarm.Load()
	return h
}

// One apply, at start and on every change, hands on every setting of the
// running app: a field of settings.Settings whose change reaches no part
// of the app fails here, unless notTheApps says whose it is.
func TestApplyHandsOnEverySetting(t *testing.T) {
	base := settings.Default()
	want := applied(base)
	var fields func(v reflect.Value, path string)
	fields = func(v reflect.Value, path string) {
		for i := range v.NumField() {
			f, name := v.Field(i), v.Type().Field(i).Name
			if path != "" {
				name = path + "." + name
			}
			if f.Kind() == reflect.Struct {
				fields(f, name)
				continue
			}
			if _, ok := notTheApps[name]; ok {
				continue
			}
			s := base
			changed := reflect.ValueOf(&s).Elem().FieldByName(v.Type().Field(i).Name)
			if path != "" {
				changed = reflect.ValueOf(&s).Elem().FieldByName(path).FieldByName(v.Type().Field(i).Name)
			}
			if !change(changed) {
				t.Errorf("%s: the test cannot change a %s", name, f.Kind())
				continue
			}
			if got := applied(s); reflect.DeepEqual(got, want) {
				t.Errorf("settings.%s changed, and apply handed no part of the app anything new: hand it on in live.apply, or say in notTheApps whose it is", name)
			}
		}
	}
	fields(reflect.ValueOf(base), "")
	for name := range notTheApps {
		if _, ok := reflect.TypeFor[settings.Settings]().FieldByName(name); !ok {
			t.Errorf("notTheApps names %s, which settings.Settings does not have", name)
		}
	}
}

// change sets v to a value other than its own; false for a kind it
// cannot.
func change(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int64:
		v.SetInt(v.Int() + 7)
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Slice:
		v.Set(reflect.Append(v, reflect.New(v.Type().Elem()).Elem()))
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		m.SetMapIndex(reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem())
		v.Set(m)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
	default:
		return false
	}
	return true
}
