// Dédale's pages: the little that plain HTML and htmx do not do, kept in this file because the
// Content-Security-Policy allows no script written in a page.
document.addEventListener("click", function (event) {
  // A seed's copy button: to the clipboard where the browser allows it (a page on this machine, or https),
  // else the seed selected, for the reader's own copy.
  const copy = event.target.closest("button.copy[data-copy]");
  if (copy) {
    const shown = copy.parentElement.querySelector("code.seed");
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(copy.dataset.copy).then(function () { copy.textContent = copy.dataset.copied; });
    } else if (shown) {
      window.getSelection().selectAllChildren(shown);
    }
    return;
  }
  // A place on the map (a room's spot, a hex, a destination, a target) carries the choice a click makes.
  const place = event.target.closest("[data-choice]");
  const panel = document.getElementById("play");
  if (place && panel && window.htmx) {
    htmx.ajax("POST", panel.dataset.step, {source: place, target: "#play", swap: "outerHTML",
                                           values: {choice: place.dataset.choice}});
    return;
  }
  const back = event.target.closest("[data-back]");
  if (back && history.length > 1) {
    event.preventDefault();
    history.back();
  }
});

document.addEventListener("submit", function (event) {
  const question = event.target.dataset.confirm;
  if (question && !window.confirm(question)) event.preventDefault();
});

// A game played through links: when the other player (or anyone) changes it, fetch the panel again. The
// server follows a limited number of pages live: a page refused a place (or whose stream failed) asks for the
// game's revision (one a change) every 2 s instead, and tries the stream again every 30 s.
const live = document.querySelector("[data-live]");
const POLL_MS = 2000, POLLS_BEFORE_STREAM = 15;
function refresh(revision) {
  // A page that made the change already shows it (its own answer): only the others fetch it.
  const panel = document.getElementById("play");
  if (!panel || panel.dataset.revision !== revision) {
    htmx.ajax("GET", live.dataset.panel, {target: "#play", swap: "outerHTML"});
  }
}
function askRevision() {  // the game's revision: false once it is gone (deleted)
  return fetch(live.dataset.poll, {cache: "no-store"})
    .then(function (answer) {
      if (!answer.ok) return answer.status !== 404;
      return answer.text().then(function (revision) { refresh(revision.trim()); return true; });
    })
    .catch(function () { return true; });  // the server out of reach for now
}
function poll() {
  let polls = 0;
  const polling = setInterval(function () {
    if (++polls > POLLS_BEFORE_STREAM) { clearInterval(polling); follow(); return; }
    askRevision().then(function (going) { if (!going) clearInterval(polling); });
  }, POLL_MS);
}
function follow() {
  const stream = new EventSource(live.dataset.live);
  stream.addEventListener("open", askRevision);  // a change made while no stream was open
  stream.addEventListener("change", function (event) { refresh(event.data); });
  stream.addEventListener("error", function () {
    if (stream.readyState !== EventSource.CLOSED) return;  // dropped: the browser opens it again by itself
    poll();  // refused (every place taken: a 503) or failed
  });
}
if (live && window.htmx) {
  if (window.EventSource) follow(); else poll();
}

// Dates come in UTC: show them in the reader's own time zone and language.
for (const moment of document.querySelectorAll("time[datetime]")) {
  const at = new Date(moment.getAttribute("datetime"));
  if (!isNaN(at)) moment.textContent = at.toLocaleString(document.documentElement.lang,
                                                         {dateStyle: "medium", timeStyle: "short"});
}

// A choice pointed at in the list lights its place on the map, and a place pointed at lights its button.
function light(event, on) {
  const button = event.target.closest && event.target.closest("button[name=choice]");
  const place = event.target.closest && event.target.closest("[data-choice]");
  const value = button ? button.value : place ? place.dataset.choice : null;
  if (value === null) return;
  for (const each of document.querySelectorAll("[data-choice], button[name=choice]")) {
    if ((each.dataset.choice || each.value) === value) each.classList.toggle("lit", on);
  }
}
document.addEventListener("mouseover", function (event) { light(event, true); });
document.addEventListener("mouseout", function (event) { light(event, false); });
document.addEventListener("focusin", function (event) { light(event, true); });
document.addEventListener("focusout", function (event) { light(event, false); });

// Zoom and pan the map: the + and - buttons make the picture larger than its box, which then scrolls (a
// finger pans it; a mouse drags it). The zoom and where the map was are kept across the panel's swaps.
const ZOOMS = [1, 1.5, 2, 3, 4];
function zoomKey(board) { return "zoom:" + board.className.replace(" zoomed", ""); }
function zoomOf(board) { return Number(sessionStorage.getItem(zoomKey(board)) || 1); }
function zoomChosen(board) { return sessionStorage.getItem(zoomKey(board)) !== null; }
// On a wide screen, "Fit" is the whole map in the window below the board's top (its choices beside it): a
// map taller than that is made narrower. A phone's map fits its width (the page scrolls down to the choices).
function fitted(board, svg) {
  svg.style.width = "";
  const drawn = svg.getBoundingClientRect();
  if (window.innerWidth <= 900 || !drawn.height) return drawn.width;
  const top = board.getBoundingClientRect().top + window.scrollY;
  const room = Math.max(window.innerHeight * 0.6, window.innerHeight - top - 24);
  if (drawn.height <= room) return drawn.width;
  svg.style.width = (drawn.width * room / drawn.height) + "px";
  return svg.getBoundingClientRect().width;
}
function setZoom(board, zoom) {  // the map drawn at `zoom` times its fitted size
  const svg = board.querySelector("svg");
  if (!svg) return;
  board.dataset.scale = zoom;
  const fit = fitted(board, svg);
  board.classList.toggle("zoomed", zoom > 1);
  if (zoom > 1) svg.style.width = (fit * zoom) + "px";
}
function applyZoom(board, zoom) {  // the player's own zoom, kept
  sessionStorage.setItem(zoomKey(board), zoom);
  setZoom(board, zoom);
}
let lastScroll = null;
// On a phone, a map with places to choose opens at the zoom a finger needs (its smallest place 24 CSS pixels
// across: WCAG 2.5.8), scrolled to those places, and finds them again after each choice, until the player
// zooms ("Fit" shows the whole map): from then on the zoom is the player's, kept for maps of this kind.
const FINGER = 24;
function atFingerZoom(board, keep) {
  const places = [...board.querySelectorAll("[data-choice]")];
  if (window.innerWidth > 900 || !places.length) return false;
  const numbered = places.filter(place => place.querySelector("circle"));  // a wall is a line: its number is
  const measured = numbered.length ? numbered : places;                     // what a finger taps
  const across = place => {
    const box = (place.querySelector("circle") || place).getBoundingClientRect();
    return Math.min(box.width, box.height);
  };
  setZoom(board, 1);
  const smallest = Math.min(...measured.map(across));
  setZoom(board, ZOOMS.find(zoom => smallest * zoom >= FINGER - 0.5) || ZOOMS[ZOOMS.length - 1]);
  if (keep) { board.scrollLeft = keep[0]; board.scrollTop = keep[1]; }
  const seen = board.getBoundingClientRect();
  const boxes = measured.map(place => (place.querySelector("circle") || place).getBoundingClientRect());
  const inView = box => box.left >= seen.left && box.right <= seen.right && box.top >= seen.top
    && box.bottom <= seen.bottom;
  if (!keep || !boxes.some(inView)) {  // the places' middle, or the first place if they spread wider than the map
    const left = Math.min(...boxes.map(b => b.left)), right = Math.max(...boxes.map(b => b.right));
    const top = Math.min(...boxes.map(b => b.top)), bottom = Math.max(...boxes.map(b => b.bottom));
    const wide = right - left > board.clientWidth || bottom - top > board.clientHeight;
    const x = wide ? (boxes[0].left + boxes[0].right) / 2 : (left + right) / 2;
    const y = wide ? (boxes[0].top + boxes[0].bottom) / 2 : (top + bottom) / 2;
    board.scrollLeft += x - (seen.left + board.clientWidth / 2);
    board.scrollTop += y - (seen.top + board.clientHeight / 2);
  }
  const shown = measured.map(place => (place.querySelector("circle") || place).getBoundingClientRect());
  if (!shown.some(box => box.top >= 0 && box.bottom <= window.innerHeight)) {  // below the phone's fold
    (measured[0].querySelector("circle") || measured[0]).scrollIntoView({block: "center", inline: "nearest"});
  }
  return true;
}
function showMap(board, keep) {  // after a load, a swap or a resize: where the map was, if anywhere
  if (!zoomChosen(board) && atFingerZoom(board, keep)) return;
  setZoom(board, zoomOf(board));
  if (keep) { board.scrollLeft = keep[0]; board.scrollTop = keep[1]; }
}
document.addEventListener("click", function (event) {
  const button = event.target.closest("[data-zoom]");
  const board = document.getElementById("board");
  if (!button || !board) return;
  const now = Number(board.dataset.scale || 1), at = ZOOMS.indexOf(now);
  const zoom = button.dataset.zoom === "fit" ? 1
    : ZOOMS[Math.max(0, Math.min(ZOOMS.length - 1, (at < 0 ? 0 : at) + (button.dataset.zoom === "in" ? 1 : -1)))];
  const ratio = zoom / now;  // keep the middle of what is seen in the middle
  const middle = [board.scrollLeft + board.clientWidth / 2, board.scrollTop + board.clientHeight / 2];
  applyZoom(board, zoom);
  board.scrollLeft = middle[0] * ratio - board.clientWidth / 2;
  board.scrollTop = middle[1] * ratio - board.clientHeight / 2;
});
document.addEventListener("htmx:beforeSwap", function () {
  const board = document.getElementById("board");
  lastScroll = board ? [board.scrollLeft, board.scrollTop] : null;
});
document.addEventListener("htmx:afterSwap", function () {
  const board = document.getElementById("board");
  if (board) showMap(board, lastScroll);
});
(function () {
  const board = document.getElementById("board");
  if (board) showMap(board);
})();
window.addEventListener("resize", function () {
  const board = document.getElementById("board");
  if (board) showMap(board, [board.scrollLeft, board.scrollTop]);
});
let drag = null;
document.addEventListener("pointerdown", function (event) {
  const board = event.target.closest(".board.zoomed");
  if (board && event.pointerType === "mouse") {
    drag = {board: board, x: event.clientX, y: event.clientY, left: board.scrollLeft, top: board.scrollTop,
            moved: false};
  }
});
document.addEventListener("pointermove", function (event) {
  if (!drag) return;
  const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
  if (Math.abs(dx) + Math.abs(dy) > 5) drag.moved = true;
  if (drag.moved) { drag.board.scrollLeft = drag.left - dx; drag.board.scrollTop = drag.top - dy; }
});
document.addEventListener("pointerup", function () {
  if (drag && drag.moved) {  // a drag is no click on what it ended over
    document.addEventListener("click", function (event) { event.stopPropagation(); event.preventDefault(); },
                              {capture: true, once: true});
  }
  drag = null;
});

// A slow action (the autopilot to the end, a result to make, odds to work out) shows that it is working and
// is not sent twice: the panel (or the form) is busy, its buttons disabled, until the answer comes.
function busy(where, button, on) {
  where.classList.toggle("busy", on);
  if (on) where.setAttribute("aria-busy", "true"); else where.removeAttribute("aria-busy");
  if (button) button.classList.toggle("working", on);
  for (const each of where.querySelectorAll("button")) each.disabled = on;
}
document.addEventListener("htmx:beforeRequest", function (event) {
  const panel = document.getElementById("play");
  if (!panel || !panel.contains(event.detail.elt)) return;
  if (panel.classList.contains("busy")) { event.preventDefault(); return; }  // one action at a time
  const submitter = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent
    && event.detail.requestConfig.triggeringEvent.submitter;
  busy(panel, submitter || null, true);
});
document.addEventListener("htmx:afterRequest", function () {
  const panel = document.getElementById("play");  // the new panel once swapped; the same one after an error
  if (panel && panel.classList.contains("busy")) busy(panel, panel.querySelector(".working"), false);
});
document.addEventListener("submit", function (event) {
  const form = event.target;
  if (event.defaultPrevented || form.hasAttribute("hx-post")) return;  // htmx's own, or not sent
  if (form.classList.contains("busy")) { event.preventDefault(); return; }
  const button = event.submitter;
  setTimeout(function () { busy(form, button, true); });  // once the browser has read the form
});
window.addEventListener("pageshow", function () {  // back to a page whose form was being sent
  for (const form of document.querySelectorAll("form.busy")) busy(form, form.querySelector(".working"), false);
});
