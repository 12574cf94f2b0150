// Package cliflags is what the commands share for their flags: flags
// before and after their arguments alike.
package cliflags

import "flag"

// ParseInterspersed parses args with fs, flags before and after the
// message alike (`feedback ask "Deploy now?" --option yes`, `feedback notify "done" --urgent`), and returns
// the arguments that are not flags, in order. "--" ends the flags: what
// follows is taken as it is, a message starting with "-" included.
func ParseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		left := fs.Args()
		if len(left) == 0 {
			return rest, nil
		}
		// flag stops at the first non-flag, or after a "--" it consumed.
		if consumed := args[:len(args)-len(left)]; len(consumed) > 0 && consumed[len(consumed)-1] == "--" {
			return append(rest, left...), nil
		}
		rest = append(rest, left[0])
		args = left[1:]
	}
}
