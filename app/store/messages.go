package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"feedback/ipc/wire"
)

// StateMessage is the state of a one-way message an agent sent
// (wire.Message, recorded as its AsQuestion): never asked, never answered.
const StateMessage = "message"

// SaveMessage records m, received at at, in the history: a row of
// questions in StateMessage, ended when it arrived.
func (s *Store) SaveMessage(m wire.Message, at time.Time) error {
	if s == nil {
		return nil
	}
	if m.ID == "" {
		return errors.New("store: save message: empty id")
	}
	q := m.AsQuestion()
	js, err := json.Marshal(storedQuestion{Question: q})
	if err != nil {
		return fmt.Errorf("store: save message %q: %w", m.ID, err)
	}
	return s.inTx("save message "+m.ID, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.StmtContext(ctx, s.st.insertQuestion).ExecContext(ctx,
			q.ID, q.Source, q.Client, "", q.Summary(titleRunes), ms(at), string(js), ""); err != nil {
			return err
		}
		_, err := tx.StmtContext(ctx, s.st.endQuestion).ExecContext(ctx, StateMessage, ms(at), q.ID)
		return err
	})
}
