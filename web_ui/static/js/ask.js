// Asking to join a side (web_ui/templates/ask.html): the number shown here is shown on the side's
// paired devices too; once one of them lets this device join, the page goes to the side's page.
import {$, main, post, showMessage, t} from "./core.js";

let polling = null;

function showNumber(number) {
  const shown = $("ask-number");
  shown.textContent = t("Your number: %(number)s. Show it to a player of this side: his device shows the same number, and he lets this one join.", {number: number.slice(0, 3) + " " + number.slice(3)});
  shown.hidden = false;
}

async function poll() {
  try {
    const answer = await post(main.dataset.poll);
    if (!answer.ok) {
      clearInterval(polling);
      $("ask-number").hidden = true;
      $("ask-button").hidden = false;
      showMessage(answer.refusal.text, true);
    } else if (answer.paired) {
      clearInterval(polling);
      window.location.assign(answer.next);
    }
  } catch (e) {
    showMessage(t("Not sent: the connection to the table is down. Try again."), true);
  }
}

async function ask() {
  try {
    const answer = await post(main.dataset.ask);
    if (!answer.ok) { showMessage(answer.refusal.text, true); return; }
    showMessage("");
    $("ask-button").hidden = true;
    showNumber(answer.number);
    clearInterval(polling);
    polling = setInterval(poll, 2000);
  } catch (e) {
    showMessage(t("Not sent: the connection to the table is down. Try again."), true);
  }
}

$("ask-button").addEventListener("click", ask);

