// The bridge page only relays: JSON-RPC between mcpeek (over the WebSocket)
// and the sandbox frame (over postMessage), plus mcpeek's own status lines.
// The token never leaves the fragment except as the first WebSocket frame.
(function () {
  "use strict";
  var token = location.hash.slice(1);
  history.replaceState(null, "", location.pathname); // drop the token from the address bar
  var key = location.pathname.split("/").pop();
  var sandboxOrigin = "http://localhost:" + location.port;
  var frame = document.getElementById("sandbox");
  var statusLine = document.getElementById("status");
  var ended = false;

  function setStatus(text, kind) {
    statusLine.textContent = text;
    statusLine.className = kind || "";
  }

  function end(text, kind) {
    ended = true;
    setStatus(text, kind);
    frame.hidden = true;
    frame.removeAttribute("src");
    setTimeout(function () { window.close(); }, 1500);
  }

  var ws = new WebSocket("ws://" + location.host + "/ws/" + encodeURIComponent(key));
  ws.onopen = function () { ws.send(token); };
  ws.onclose = function () {
    if (!ended) end("mcpeek closed this page's connection. You can close this tab.", "refused");
  };
  ws.onerror = function () {
    if (!ended) setStatus("mcpeek refused this page's connection.", "refused");
  };
  ws.onmessage = function (event) {
    var msg;
    try { msg = JSON.parse(event.data); } catch (e) { return; }
    if (msg && typeof msg.mcpeek === "string") {
      control(msg);
      return;
    }
    if (frame.contentWindow) frame.contentWindow.postMessage(msg, sandboxOrigin);
  };

  function control(msg) {
    switch (msg.mcpeek) {
      case "session":
        document.getElementById("asking").textContent = msg.title || (msg.server + " is asking for input");
        document.getElementById("via").textContent = "via " + msg.connection;
        var quote = document.getElementById("message");
        quote.textContent = msg.message || "";
        quote.hidden = !msg.message;
        if (msg.allow) frame.setAttribute("allow", msg.allow);
        frame.src = msg.sandbox;
        frame.hidden = false;
        break;
      case "status":
        setStatus(msg.text);
        break;
      case "display":
        document.body.classList.toggle("fullscreen", msg.mode === "fullscreen");
        break;
      case "size":
        if (typeof msg.height === "number" && msg.height > 0) frame.style.height = Math.min(msg.height, 4000) + "px";
        break;
      case "refused":
        end(msg.text, "refused");
        break;
      case "end":
        end(msg.text, "ended");
        break;
    }
  }

  window.addEventListener("message", function (event) {
    if (event.source !== frame.contentWindow || event.origin !== sandboxOrigin) return;
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(event.data));
  });
})();
