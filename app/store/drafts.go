package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/crc32"

	"feedback/ipc/wire"
)

// Kinds of image rows.
const (
	kindDraft  = "draft"
	kindAnswer = "answer"
)

// SaveDraft stores d as the draft of the open (or withdrawn) question id,
// replacing the previous one. It is meant to be called as the user types:
// when the images are those already stored (or there are none) it is one
// UPSERT of the replies; only a change of images rewrites them.
// A draft for a question that has already ended is ignored (a late save
// racing the submit); one for an unknown question fails with ErrNotFound.
func (s *Store) SaveDraft(id string, d wire.Draft) error {
	if s == nil {
		return nil
	}
	replies, err := json.Marshal(d.Replies)
	if err != nil {
		return fmt.Errorf("store: save draft %s: %w", id, err)
	}
	at := ms(d.UpdatedAt)
	sig := imagesSig(d.Images)
	ctx := context.Background()

	var res sql.Result
	if sig == "" {
		res, err = s.st.draftText.ExecContext(ctx, id, string(replies), at)
	} else {
		res, err = s.st.draftKeep.ExecContext(ctx, string(replies), at, id, sig)
	}
	if err != nil {
		return wrap("save draft "+id, err)
	}
	if n, err := res.RowsAffected(); err != nil || n > 0 {
		return wrap("save draft "+id, err)
	}

	// No draft yet with these images, or the question is not open: find
	// out which, and write the draft with its images in one transaction.
	return s.inTx("save draft "+id, func(ctx context.Context, tx *sql.Tx) error {
		state, _, found, err := s.questionState(ctx, tx, id)
		if err != nil {
			return err
		}
		if !found {
			return ErrNotFound
		}
		if state != StateOpen && state != StateWithdrawn {
			s.log.Debug("draft for an ended question ignored", "id", id, "state", state)
			return nil
		}
		if _, err := tx.StmtContext(ctx, s.st.upsertDraft).ExecContext(ctx, id, string(replies), sig, at); err != nil {
			return err
		}
		return s.replaceImages(ctx, tx, id, kindDraft, d.Images)
	})
}

// Draft returns the draft of question id, and whether there is one.
func (s *Store) Draft(id string) (wire.Draft, bool, error) {
	if s == nil {
		return wire.Draft{}, false, nil
	}
	// One statement, so the replies and the images are one snapshot.
	rows, err := s.st.selectDraft.QueryContext(context.Background(), id)
	if err != nil {
		return wire.Draft{}, false, wrap("draft "+id, err)
	}
	defer rows.Close()
	var (
		d       wire.Draft
		found   bool
		replies string
		at      int64
	)
	for rows.Next() {
		var img nullImage
		if err := rows.Scan(&replies, &at, &img.mime, &img.name, &img.data); err != nil {
			return wire.Draft{}, false, wrap("draft "+id, err)
		}
		found = true
		if img.mime.Valid {
			d.Images = append(d.Images, img.image())
		}
	}
	if err := rows.Err(); err != nil {
		return wire.Draft{}, false, wrap("draft "+id, err)
	}
	if !found {
		return wire.Draft{}, false, nil
	}
	if err := json.Unmarshal([]byte(replies), &d.Replies); err != nil {
		return wire.Draft{}, false, fmt.Errorf("store: draft %s: decode: %w", id, err)
	}
	d.UpdatedAt = fromMS(at)
	return d, true, nil
}

// imagesSig identifies a list of images, so that SaveDraft can tell
// whether the stored ones are still current without reading them back.
// It is "" for no images. It guards against accidental change, not
// against an adversary: per image, the length and two CRC-32s of
// different polynomials (both hardware-accelerated, about 8 GB/s), over
// the MIME type, name and data.
func imagesSig(images []wire.Image) string {
	if len(images) == 0 {
		return ""
	}
	sig := make([]byte, 0, 16*len(images))
	for _, img := range images {
		c, e := crc32.New(castagnoli), crc32.NewIEEE()
		for _, b := range [][]byte{[]byte(img.MIME), []byte(img.Name), img.Data} {
			var n [8]byte
			binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
			c.Write(n[:])
			c.Write(b)
			e.Write(n[:])
			e.Write(b)
		}
		sig = binary.LittleEndian.AppendUint64(sig, uint64(len(img.Data)))
		sig = c.Sum(sig)
		sig = e.Sum(sig)
	}
	return hex.EncodeToString(sig)
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// replaceImages makes images the stored images of kind for question id.
func (s *Store) replaceImages(ctx context.Context, tx *sql.Tx, id, kind string, images []wire.Image) error {
	if _, err := tx.StmtContext(ctx, s.st.deleteImages).ExecContext(ctx, id, kind); err != nil {
		return err
	}
	if len(images) == 0 {
		return nil
	}
	ins := tx.StmtContext(ctx, s.st.insertImage)
	for i, img := range images {
		data := img.Data
		if data == nil {
			data = []byte{} // NOT NULL: an empty image is still an image
		}
		if _, err := ins.ExecContext(ctx, id, kind, i, img.MIME, img.Name, data); err != nil {
			return err
		}
	}
	return nil
}

// nullImage scans an image from a LEFT JOIN.
type nullImage struct {
	mime, name sql.NullString
	data       []byte
}

func (n nullImage) image() wire.Image {
	data := n.data
	if data == nil {
		data = []byte{}
	}
	return wire.Image{MIME: n.mime.String, Name: n.name.String, Data: data}
}
