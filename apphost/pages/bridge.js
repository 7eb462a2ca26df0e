// The bridge page only relays: JSON-RPC between mcpeek (over the WebSocket)
// and the sandbox frame (over postMessage), plus mcpeek's own status lines.
// The token never leaves the fragment except as the first WebSocket frame.
(function () {
  "use strict";
  // The fragment is TOKEN.SANDBOX, the token and the sandbox page's id,
  // and once mcpeek has read the app .ALLOW, the app frame's permissions
  // (base64url, perhaps empty).
  var parts = location.hash.slice(1).split(".");
  var token = parts[0];
  var key = location.pathname.split("/").pop();
  var sandboxOrigin = "http://localhost:" + location.port;
  var frame = document.getElementById("sandbox");
  var statusLine = document.getElementById("status");
  var ended = false;
  var pending = []; // the sandbox's messages until the socket is open
  var frameAllow = null;

  // showSandbox loads the sandbox page with the app frame's permissions,
  // unless it is loading with them already.
  function showSandbox(url, allow) {
    allow = allow || "";
    if (frame.getAttribute("src") !== url || allow !== frameAllow) {
      frameAllow = allow;
      if (allow) frame.setAttribute("allow", allow);
      else frame.removeAttribute("allow");
      pending = [];
      frame.src = url;
    }
    frame.hidden = false;
  }

  // Start the sandbox page now, while the socket connects: it is a page
  // load of its own, the longest step after the tab's.
  if (/^[A-Za-z0-9_-]+$/.test(parts[1] || "")) {
    var allow = "";
    try { allow = parts[2] ? atob(parts[2].replace(/-/g, "+").replace(/_/g, "/")) : ""; } catch (e) { allow = ""; }
    showSandbox(sandboxOrigin + "/sandbox/" + parts[1], allow);
  }

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
  history.replaceState(null, "", location.pathname); // drop the token from the address bar, once both have started
  ws.onopen = function () {
    ws.send(token);
    pending.forEach(function (m) { ws.send(m); });
    pending = [];
  };
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
        showSandbox(msg.sandbox, msg.allow);
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
    else if (ws.readyState === WebSocket.CONNECTING) pending.push(JSON.stringify(event.data));
  });
})();
