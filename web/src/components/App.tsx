import { useRoute } from "../hooks";
import { dailyUrl, linkTo } from "../route";
import { GamePage } from "./GamePage";
import { LogoIcon } from "./Icons";
import { JoinPage } from "./JoinPage";
import { Lobby } from "./Lobby";
import { Replay } from "./Replay";
import { DailyPage } from "./Daily";
import { ProfilePage } from "./Profile";
import { Help } from "./Help";
import { t } from "../i18n";
import { LanguageSwitcher, useLanguage } from "./LanguageSwitcher";

export function App() {
  const route = useRoute();
  const lang = useLanguage();
  return (
    <>
      <a class="skip-link" href="#main">
        {t("app.skip")}
      </a>
      <header class="app-bar">
        <a class="brand" href="/" onClick={linkTo("/")}>
          <LogoIcon size={28} />
          <span>Quadropolis</span>
        </a>
        <nav class="app-nav" aria-label={t("app.nav")}>
          <a href="/" onClick={linkTo("/")}>
            {t("app.lobby")}
          </a>
          <a href={dailyUrl()} onClick={linkTo(dailyUrl())} data-testid="nav-daily">
            {t("app.daily")}
          </a>
          <a href="/?replay=file" onClick={linkTo("/?replay=file")}>
            {t("app.replays")}
          </a>
          <a href="/rules">{t("app.rules")}</a>
          <Help />
          <LanguageSwitcher lang={lang} />
        </nav>
      </header>
      {route.page === "lobby" && <Lobby />}
      {route.page === "join" && <JoinPage key={`${route.game}/${route.seat}`} game={route.game} seat={route.seat} />}
      {route.page === "game" && <GamePage key={route.game} game={route.game} seat={route.seat} token={route.token} />}
      {route.page === "daily" && <DailyPage key={route.day ?? "today"} day={route.day} />}
      {route.page === "replay" && <Replay key={route.game ?? "file"} game={route.game} />}
      {route.page === "profile" && <ProfilePage key={route.player} username={route.player} />}
    </>
  );
}
