package core

import (
	"fmt"
	"testing"
	"time"

	"feedback/app/clock/clocktest"

	"feedback/ipc/wire"
)

func TestKeptAnswersOncePerAnswerOldestFirst(t *testing.T) {
	var k keptAnswers
	k.put("x", wire.Answer{QuestionID: "x"})
	k.put("y", wire.Answer{QuestionID: "y"})
	k.put("x", wire.Answer{QuestionID: "x#2"})
	for _, want := range []string{"x", "x#2"} {
		a, ok := k.take("x")
		if !ok || a.QuestionID != want {
			t.Fatalf("take(x) = %q, %v; want %q", a.QuestionID, ok, want)
		}
	}
	if _, ok := k.take("x"); ok {
		t.Error("an answer was handed out twice")
	}
	if a, ok := k.take("y"); !ok || a.QuestionID != "y" {
		t.Errorf("take(y) = %+v, %v", a, ok)
	}
}

func TestKeptAnswersAreBoundedByCount(t *testing.T) {
	var k keptAnswers
	var dropped []wire.Answer
	for i := range maxKept + 2 {
		dropped = append(dropped, k.put(fmt.Sprint(i), wire.Answer{QuestionID: fmt.Sprint(i)})...)
	}
	if k.len() != maxKept {
		t.Errorf("kept %d, want %d", k.len(), maxKept)
	}
	if len(dropped) != 2 || dropped[0].QuestionID != "0" || dropped[1].QuestionID != "1" {
		t.Errorf("dropped %+v, want the two oldest", dropped)
	}
	if _, ok := k.take("0"); ok {
		t.Error("the oldest was not dropped")
	}
	if _, ok := k.take(fmt.Sprint(maxKept + 1)); !ok {
		t.Error("the newest was dropped")
	}
}

func TestKeptAnswersExpire(t *testing.T) {
	c := clocktest.New()
	k := keptAnswers{ttl: time.Minute, clock: c}
	k.put("old", wire.Answer{})
	c.Advance(30 * time.Second)
	k.put("new", wire.Answer{})
	c.Advance(31 * time.Second)
	if _, ok := k.take("old"); ok {
		t.Error("an answer older than the TTL was handed out")
	}
	if _, ok := k.take("new"); !ok {
		t.Error("an answer within the TTL was dropped")
	}
}
