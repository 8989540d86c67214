package nb

import (
	"errors"
	"fmt"

	"github.com/dpbandits/dpbandits/dpb/data"
	dpbplot "github.com/dpbandits/dpbandits/dpb/plot"
)

// DataFile returns the path of the data file rel (e.g. "uci/shuttle.csv")
// under [data.Dir] ($DPB_DATA, ~/.local/share/dpbandits, or shared/data
// beside the checkout). When the file is absent it shows a declared skip
// ([dpbplot.ShowSkip]) with the command that fetches it and returns false:
// the cell then computes and shows nothing else. Other errors panic.
func DataFile(rel string) (string, bool) {
	path, err := data.Locate(data.Dir(), rel)
	var miss *data.MissingError
	if errors.As(err, &miss) {
		dpbplot.ShowSkip(fmt.Sprintf("data file `%s` not found", path), miss.FetchCommand())
		return "", false
	}
	Check(err)
	return path, true
}

// HaveData reports whether the data file rel exists, showing nothing.
func HaveData(rel string) bool {
	_, err := data.Locate(data.Dir(), rel)
	return err == nil
}
