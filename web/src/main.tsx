import { render } from "preact";
import { App } from "./components/App";
import { languageReady } from "./i18n";
import "./styles.css";

// The first render waits for the visitor's language (a chunk of its own, unless English).
void languageReady.then(() => render(<App />, document.getElementById("app")!));
