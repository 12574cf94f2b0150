package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"feedback/app/core/dnd"
	"feedback/internal/atomicfile"
	"feedback/internal/safefile"
)

// dndFile is where do not disturb is kept (a dnd.Store): a JSON file at
// this path, written whole through a temporary file and a rename,
// readable by the user only.
type dndFile string

// maxDNDFileBytes bounds dnd.json: what Save writes is under 200 bytes.
const maxDNDFileBytes = 64 << 10

// Load implements dnd.Store; a missing file is off. The file is read only
// when it is a regular file of at most 64 KiB (a FIFO or /dev/zero there is
// an error at once). (Do not disturb holds what it loads to what its mode
// allows.)
func (f dndFile) Load() (dnd.State, error) {
	data, err := safefile.ReadFile(string(f), maxDNDFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return dnd.State{Mode: dnd.Off}, nil
	}
	if err != nil {
		return dnd.State{Mode: dnd.Off}, err
	}
	var d dnd.State
	if err := json.Unmarshal(data, &d); err != nil {
		return dnd.State{Mode: dnd.Off}, fmt.Errorf("%s: %w (delete the file to turn do not disturb off)", f, err)
	}
	if _, err := dnd.For(d.Mode, time.Time{}); err != nil {
		return dnd.State{Mode: dnd.Off}, fmt.Errorf("%s: %w", f, err)
	}
	return d, nil
}

// Save implements dnd.Store.
func (f dndFile) Save(d dnd.State) error {
	data, err := json.Marshal(d)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(string(f), append(data, '\n'), atomicfile.Options{Perm: 0o600})
}
