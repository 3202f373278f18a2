"""The seat page's script and style, served from the hub itself (the CSP allows only 'self')."""

from __future__ import annotations

# Appends one node per line to the live region (role="log"), never moving the focus, which
# stays in the command field; reconnects by itself (EventSource sends Last-Event-ID).
APP_JS = r"""
(function () {
  "use strict";
  var body = document.body;
  var log = document.getElementById("log");
  var field = document.getElementById("line");
  var form = document.getElementById("say");
  var speak = document.getElementById("speak");
  var status = document.getElementById("status");
  var lang = document.documentElement.lang;
  var tag = body.getAttribute("data-private-tag");
  var after = parseInt(body.getAttribute("data-last") || "0", 10);

  function add(entry) {
    if (entry.n <= after) { return; }
    after = entry.n;
    var p = document.createElement("p");
    if (entry.private) {
      p.className = "private";
      var s = document.createElement("strong");
      s.textContent = tag + " ";
      p.appendChild(s);
    }
    p.appendChild(document.createTextNode(entry.text));
    log.appendChild(p);
    while (log.childNodes.length > 500) { log.removeChild(log.firstChild); }
    if (entry.private && speak && speak.checked && window.speechSynthesis) {
      var u = new SpeechSynthesisUtterance(entry.text);
      u.lang = entry.lang || lang;
      window.speechSynthesis.speak(u);
    }
  }

  function post(text) {
    var data = new URLSearchParams();
    data.set("line", text);
    return fetch(form.getAttribute("action"), {method: "POST", body: data,
      headers: {"Accept": "application/json"}, credentials: "same-origin", cache: "no-store"})
      .then(function (r) { return r.json(); })
      .then(function (j) { status.textContent = j.error || ""; })
      .catch(function () { status.textContent = body.getAttribute("data-offline"); });
  }

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var text = field.value.trim();
    if (text) { post(text); }
    field.value = "";
    field.focus();
  });
  Array.prototype.forEach.call(document.querySelectorAll("button[data-say]"), function (b) {
    b.addEventListener("click", function (e) {
      e.preventDefault();
      post(b.getAttribute("data-say"));
      field.focus();
    });
  });

  var source = null;
  function connect() {
    source = new EventSource(body.getAttribute("data-events") + "?after=" + after);
    source.onmessage = function (e) { add(JSON.parse(e.data)); status.textContent = ""; };
    source.addEventListener("released", function (e) {
      status.textContent = e.data;
      source.close();
      field.disabled = true;
    });
    source.onerror = function () {
      if (source.readyState === EventSource.CLOSED) { setTimeout(connect, 2000); }
    };
  }
  connect();
  field.focus();
})();
"""

APP_CSS = """
html { font-size: 125%; }
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 40rem; padding: 0.5rem;
       line-height: 1.4; color: #111; background: #fff; }
#log { border: 2px solid #555; min-height: 8rem; max-height: 50vh; overflow-y: auto; padding: 0.5rem; }
#log p { margin: 0.2rem 0; }
#log p.private { background: #fff3c4; }
input[type=text] { font-size: 1.2rem; width: 100%; box-sizing: border-box; padding: 0.6rem; }
button { font-size: 1.2rem; min-height: 3rem; min-width: 6rem; margin: 0.25rem 0.25rem 0.25rem 0;
         padding: 0.4rem 0.8rem; }
label { display: block; margin: 0.5rem 0 0.2rem; }
label.check { display: flex; align-items: center; gap: 0.5rem; }
input[type=checkbox] { width: 1.5rem; height: 1.5rem; }
#status { min-height: 1.5rem; font-weight: bold; }
:focus { outline: 3px solid #0050b3; outline-offset: 2px; }
"""
