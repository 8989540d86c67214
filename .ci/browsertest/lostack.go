package main

// -lost-ack NB: the widget notebook NB opened with the page's first
// acknowledgement of GoNB's connection handshake (#comm_open_ack, the
// kernel's answer to gonb_comm's comm_open) dropped, as ZeroMQ drops it
// when the kernel answers before the Jupyter server's new IOPub subscriber
// is subscribed (dpb/plot/widgets_connect.go says why that happens while a
// cell runs). GoNB's page script then gives up on that connection after
// 500 ms, for good; a notebook that builds its widgets on it waits for
// ever. The notebook must pass all the same: plot.ConnectWidgets notices the
// missing round trip and has GoNB reinstall the connection.

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// ackJS wraps the page's WebSocket: on gonb_comm's connection (the
// kernel's channels without a session_id, which the notebook's own
// connection always has) it logs how long each comm_open waited for its
// #comm_open_ack (GoNB's page script waits 500 ms), and with drop = true
// (the %t) the first message carrying #comm_open_ack is not delivered.
const ackJS = `(() => {
  const drop = %t;
  const Orig = window.WebSocket;
  let lost = 0;
  function Wrapped(url, protocols) {
    const ws = protocols === undefined ? new Orig(url) : new Orig(url, protocols);
    if (!/\/api\/kernels\/[^\/?]+\/channels$/.test(String(url))) return ws;
    let handler = null, opened = 0;
    const send = ws.send.bind(ws);
    ws.send = (data) => {
      if (typeof data === 'string' && data.indexOf('"comm_open"') >= 0) opened = performance.now();
      return send(data);
    };
    ws.addEventListener('message', (ev) => {
      if (typeof ev.data === 'string' && ev.data.indexOf('"#comm_open_ack"') >= 0) {
        const ms = Math.round(performance.now() - opened);
        if (drop && lost === 0) {
          lost++;
          console.warn('` + lostAckMark + `, ' + ms + ' ms after comm_open');
          return;
        }
        console.log('gonb_comm handshake: #comm_open_ack ' + ms + ' ms after comm_open');
      }
      if (handler) handler.call(ws, ev);
    });
    Object.defineProperty(ws, 'onmessage', {configurable: true, get() { return handler; }, set(fn) { handler = fn; }});
    return ws;
  }
  Wrapped.prototype = Orig.prototype;
  for (const k of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED']) Wrapped[k] = Orig[k];
  window.WebSocket = Wrapped;
})();`

// lostAckMark is the console line the dropped acknowledgement leaves: a
// -lost-ack run without it tested nothing.
const lostAckMark = "gonb_comm test (-lost-ack): dropped the first #comm_open_ack"

// watchAck makes every document the tab of ctx loads run ackJS first
// (drop: lose the first acknowledgement).
func watchAck(ctx context.Context, drop bool) error {
	_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: fmt.Sprintf(ackJS, drop)})
	return err
}
