// Dédale's pages: the little that plain HTML and htmx do not do, kept in this file because the
// Content-Security-Policy allows no script written in a page.
document.addEventListener("click", function (event) {
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

// A game played through links: when the other player (or anyone) changes it, fetch the panel again.
const live = document.querySelector("[data-live]");
if (live && window.EventSource && window.htmx) {
  new EventSource(live.dataset.live).addEventListener("change", function (event) {
    // A page that made the change already shows it (its own answer): only the others fetch it.
    const panel = document.getElementById("play");
    if (!panel || panel.dataset.steps !== event.data) {
      htmx.ajax("GET", live.dataset.panel, {target: "#play", swap: "outerHTML"});
    }
  });
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
