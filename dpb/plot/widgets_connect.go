package plot

import (
	"errors"
	"fmt"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/comms"
	"github.com/janpfeifer/gonb/gonbui/dom"
)

// GoNB's widgets (gonbui/widgets, GoNB v0.11.4) send their values over
// gonb_comm, a WebSocket the kernel's script opens from the page to the
// Jupyter server on the first widget of a cell. Its handshake is fragile
// while a cell runs, which is whenever a widget is built:
//
//  1. The page opens a new connection to /api/kernels/ID/channels; the
//     server gives it its own ZeroMQ sockets, including a new IOPub
//     subscriber. Before passing messages it normally "nudges" the kernel
//     until that subscriber has seen a message, but not when the kernel is
//     busy (Notebook 6.4, ZMQChannelsHandler.nudge: "Do not nudge busy
//     kernels"), so the page's comm_open reaches the kernel at once.
//  2. GoNB answers comm_open outside its queue of busy requests (a
//     goroutine) and publishes the acknowledgement (#comm_open_ack) on
//     IOPub at once: when the new subscriber is not yet subscribed, ZeroMQ
//     drops it for that subscriber.
//  3. The page waits 500 ms for that acknowledgement (gonb_comm's
//     _wait_open_ack), then closes gonb_comm for good; nothing retries.
//     The slider's script then finds no gonb_comm (or a dead one), its first
//     value never reaches the kernel, and SliderBuilder.Done, which waits
//     for that value, waits for ever.
//
// Steps 2 and 3 also fail when the acknowledgement is merely late (a loaded
// machine). The kernel does reinstall gonb_comm, but only when asked to
// talk to the page more than a second after its last message and a
// heartbeat goes unanswered (comms.State.InstallWebSocket).
// ConnectWidgets uses that: it proves the connection with a round trip
// before the cell builds its widgets, and asks the kernel to reinstall it
// when the round trip does not come back.

// connectProbeJS sends %[2]d to the address %[1]q over the page's
// gonb_comm once it is connected; it does nothing when there is no
// gonb_comm, or when gonb_comm never connects.
const connectProbeJS = `(() => {
  const c = globalThis.gonb_comm;
  if (!c) { console.warn("dpb: ConnectWidgets attempt %[2]d: no gonb_comm in the page"); return; }
  c.send(%[1]q, %[2]d);
})();`

// ConnectWidgets makes sure that the page's connection to the kernel, over
// which GoNB's widgets send their values, works (see the comment above):
// it sends a value from the page to the cell and waits up to wait for it;
// when it does not arrive, it asks the kernel to reinstall the connection
// and tries again, attempts times in all. It returns an error when no
// attempt got through, and the number of attempts used. wait must exceed
// a second, the kernel's threshold for the heartbeat that detects a dead
// connection. Call it in the
// cell that builds the widgets, just before building them: the kernel
// reinstalls the connection on its own (a new handshake, the same risk)
// when a widget is built more than a second after its last message from
// the page.
func ConnectWidgets(wait time.Duration, attempts int) (int, error) {
	if attempts < 1 || wait <= time.Second {
		return 0, fmt.Errorf("plot.ConnectWidgets(%v, %d): want a wait over a second (the kernel's heartbeat threshold) and at least one attempt", wait, attempts)
	}
	if !gonbui.IsNotebook {
		return 0, errors.New("plot.ConnectWidgets: not running in a notebook (GoNB)")
	}
	addr := "/dpb/connect/" + gonbui.UniqueId()
	probe := comms.Listen[int](addr).LatestOnly() // subscribing makes the kernel install gonb_comm
	defer probe.Close()
	for a := 1; a <= attempts; a++ {
		if a > 1 {
			// More than a second since the page's last message: the
			// kernel sends a heartbeat, hears nothing back from the
			// closed gonb_comm and reinstalls it.
			dom.TransientJavascript(fmt.Sprintf(`console.warn("dpb: ConnectWidgets: no round trip in %v, attempt %d: GoNB reinstalls gonb_comm");`, wait, a))
			comms.Start()
		}
		dom.TransientJavascript(fmt.Sprintf(connectProbeJS, addr, a))
		if waitRoundTrip(probe.C, a, wait) {
			return a, nil
		}
	}
	return attempts, fmt.Errorf("plot.ConnectWidgets: no round trip to the page in %d attempts of %v: GoNB's widgets cannot work (the browser's console says why)", attempts, wait)
}

// waitRoundTrip reports whether the value a arrives on c within wait;
// values of earlier attempts (a late round trip over a connection since
// replaced) are skipped.
func waitRoundTrip(c <-chan int, a int, wait time.Duration) bool {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case v := <-c:
			if v == a {
				return true
			}
		case <-timer.C:
			return false
		}
	}
}
