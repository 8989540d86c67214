package plot

import "fmt"

// DeclaredSkip starts the message of a notebook cell that could not run
// because an input (the replay data) is absent. .ci/nbcheck.py accepts it
// only in a notebook whose metadata declares that it may skip
// ("dpb": {"declared_skip": "..."}), and reports it as a skip, not a pass.
const DeclaredSkip = "DECLARED SKIP"

// SkipMarkdown is the message ShowSkip displays: what is missing, that
// nothing is computed, and the command that gets it.
func SkipMarkdown(what, command string) string {
	return fmt.Sprintf("**%s:** %s. Nothing in this cell was computed. Get the data with\n\n```sh\n%s\n```\n\nand run the notebook again.", DeclaredSkip, what, command)
}

// ShowSkip displays [SkipMarkdown] in a GoNB notebook (and prints it
// elsewhere).
func ShowSkip(what, command string) {
	if !InNotebook() {
		fmt.Println(SkipMarkdown(what, command))
		return
	}
	ShowMarkdown(SkipMarkdown(what, command))
}
