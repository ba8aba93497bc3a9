/**
 * Every message FIRMA shows a user in Romanian — the pane, the cells' errors, the CLI — in one table,
 * so that each surface says the same thing in the same words. English is in en.ts, under the same keys (the compiler and test/shared/messages.test.ts
 * fail on a key in one language only). Keys are dot paths of lowerCamel words: `area.name`, or
 * `area.name.detail`; `{name}` placeholders are filled by t() (index.ts), numbers formatted for the
 * language. Plural nouns are `one|few|other` (Romanian) or `one|other` (English), picked by count().
 * No message ever includes the API key.
 */
export const ro = {
  // app
  "app.lead": "Date despre firmele din România, direct în celulele Excel.",
  "app.loadFailed": "Setările nu au putut fi citite: spațiul de stocare al add-in-ului nu răspunde. Redeschideți panoul.",
  "app.unexpected": "Ceva nu a mers cum trebuia. Încercați din nou; dacă se repetă, redeschideți panoul.",

  // the flows (search, match, add columns): what the page shows before they load; the rest is in src/taskpane/flows/texts-ro.ts
  "search.heading": "Caută o firmă",
  "search.label": "Denumire, CUI sau nr. de înregistrare (J…)",
  "search.county": "Județ (opțional)",
  "search.run": "Caută",
  "columns.heading": "Adaugă coloane",
  "match.heading": "Potrivește o coloană de denumiri",
  "firmWatch.heading": "Firme urmărite de serverul firmei",
  "flows.loadFailed": "Această parte a panoului nu s-a putut încărca. Redeschideți panoul.",

  // key
  "key.heading": "Cheia API",
  "key.label": "Cheia primită de la serviciu",
  "key.placeholder": "Lipiți cheia aici",
  "key.show": "Arată",
  "key.hide": "Ascunde",
  "key.showLabel": "Arată cheia",
  "key.hideLabel": "Ascunde cheia",
  "key.save": "Salvează",
  "key.test": "Testează (1 credit)",
  "key.remove": "Șterge",
  "key.get": "Nu aveți o cheie? Obțineți una (se deschide într-o fereastră nouă)",
  "key.hint":
    "Testarea face un apel la serviciu și costă 1 credit. Se testează cheia din câmp sau, dacă e gol, cheia salvată. Cheia se păstrează în spațiul add-in-ului, niciodată în registru.",
  "key.stateSaved": "O cheie API este salvată.",
  "key.stateNone": "Nicio cheie API salvată: introduceți cheia primită de la serviciu.",
  "key.saved": "Cheia a fost salvată.",
  "key.removed": "Cheia a fost ștearsă.",
  "key.typeFirst": "Introduceți cheia în câmp, apoi apăsați Salvează.",
  "key.nothingToRemove": "Nu există nicio cheie salvată.",
  "key.storageFailed": "Cheia nu a putut fi salvată: spațiul de stocare al add-in-ului nu răspunde.",
  "key.recalc": "{cells} cu erori se recalculează cu noua cheie (cost estimat: {credits}).",
  "key.recalcTooDear": "{cells} cu erori ar costa {credits}, mai mult decât cele {left} rămase: folosiți Actualizare.",
  "key.testing": "Se testează cheia…",
  "key.testOk": "Cheia este validă. Plan: {plan}.",
  "key.testOkRemaining": "Cheia este validă. Plan: {plan}. Credite rămase: {remaining}.",
  "key.testPlanUnknown": "nespecificat de serviciu",
  "key.testNoKey": "Nu există nicio cheie de testat: introduceți cheia în câmp.",
  "key.testInvalid":
    "Cheia NU este validă: serviciul a refuzat-o. Verificați că ați copiat-o întreagă, fără spații, sau cereți o cheie nouă.",
  "key.testExhausted": "Cheia este validă, dar creditele planului s-au terminat pentru perioada curentă.",
  "key.testNetwork": "Serviciul nu poate fi contactat la {url}. Verificați adresa din Setări și conexiunea.",
  "key.testTimeout": "Serviciul nu a răspuns la timp. Încercați din nou.",
  "key.testServer": "Serviciul are o problemă temporară. Încercați mai târziu.",
  "key.testOther": "Testul nu a reușit: serviciul a răspuns neașteptat.",

  // pane.firm: the pane with a personal token of a firm's FIRMA server (src/taskpane/pane/firm.ts)
  "pane.firm.keyLabel": "Cheia primită de la serviciu sau tokenul personal de la firmă",
  "pane.firm.test": "Testează (fără credit)",
  "pane.firm.tokenLabel": "Tokenul personal primit de la firmă",
  "pane.firm.keyHint":
    "Dacă firma are propriul server FIRMA, lipiți aici tokenul personal (firma_…) primit de la administrator: cheia firmei rămâne pe server, iar testarea tokenului nu costă credite.",
  "pane.firm.connected": "Conectat la serverul firmei ca {name}.",
  "pane.firm.refused": "Serverul firmei refuză tokenul salvat: a fost revocat sau nu este cunoscut. Cereți administratorului un token nou.",
  "pane.firm.unreachable": "Token personal salvat; serverul firmei nu răspunde acum.",
  "pane.firm.testOk": "Tokenul este valid: conectat la serverul firmei ca {name}. Rămase din bugetul lunar: {remaining} din {budget}.",
  "pane.firm.testRefused":
    "Serverul firmei refuză acest token: a fost revocat sau nu este cunoscut. Cereți administratorului un token nou.",
  "pane.firm.who": "Cifrele dvs. pe serverul firmei: {name}, luna {month}.",
  "pane.firm.budgetLabel": "Bugetul dvs. în luna aceasta",
  "pane.firm.budget": "Bugetul lunar",
  "pane.firm.spent": "Cheltuit luna aceasta",
  "pane.firm.remaining": "Rămase din buget",
  "pane.firm.warn80": "Ați folosit {pct}% din bugetul lunar.",
  "pane.firm.warn100":
    "Bugetul lunar s-a terminat: cererile care ar costa credite sunt refuzate până luna viitoare sau până când administratorul îl mărește. Valorile deja aduse rămân.",
  "pane.firm.stale": "Serverul firmei nu răspunde acum; cifrele sunt ultimele primite.",
  "pane.firm.usageNote":
    "Cifrele sunt ale serverului firmei: ce ați cheltuit luna aceasta, de pe orice calculator. Răspunsurile pe care firma le are deja nu costă nimic.",

  // usage
  "usage.heading": "Plan și consum",
  "usage.plan": "Planul",
  "usage.planAuto": "Automat (după serviciu)",
  "usage.detected": "Serviciul raportează planul {plan}.",
  "usage.notDetected": "Serviciul nu a raportat încă planul: alegeți-l din listă ca să vedeți limitele.",

  // plan
  "plan.free": "Free — 10 apeluri pe zi",
  "plan.pro": "Pro — 4.000 de credite pe lună",
  "plan.business": "Business — 20.000 de credite pe lună",
  "plan.enterprise": "Enterprise — fără limită",

  // usage
  "usage.today": "Azi",
  "usage.month": "Luna aceasta",
  "usage.ofLimit": "{used} din {limit}",
  "usage.noLimit": "{used} · fără limită",
  "usage.freeMonth": "{used} · planul Free are doar limită zilnică",
  "usage.chartLabel": "Credite pe zi în luna aceasta: cel mult {max} într-o zi, azi {today}.",
  "usage.chartEmpty": "Niciun credit folosit luna aceasta.",
  "usage.left": "Credite rămase",
  "usage.serviceRemaining": "Rămase, după serviciu",
  "usage.cacheHits": "Răspunsuri din cache (fără credite)",
  "usage.savedByBatching": "Credite economisite prin grupare",
  "usage.refused": "Apeluri refuzate (nu costă)",
  "usage.unlimited": "nelimitat",
  "usage.unknown": "necunoscut: alegeți planul",
  "usage.cacheSize": "Răspunsuri păstrate în cache",
  "usage.cacheSizeValue": "{entries} ({size})",
  "usage.stop": "Creditele s-au epuizat; FIRMA nu mai trimite cereri până la {until} (ora României). Valorile deja aduse rămân.",
  "usage.stopFirmBudget":
    "Bugetul dvs. lunar pe serverul firmei s-a epuizat; FIRMA nu mai trimite cereri până la {until} (ora României). Cereți administratorului mai mult. Valorile deja aduse rămân.",
  "usage.stopFirmDay":
    "Serverul firmei a atins plafonul zilnic de credite; FIRMA nu mai trimite cereri până la {until} (ora României). Valorile deja aduse rămân.",
  "usage.stopRetry": "Reîncearcă acum",
  "usage.stopCleared": "FIRMA trimite din nou cereri. Dacă serviciul spune iar că nu mai sunt credite, oprirea revine.",

  // guard
  "guard.held": "{cells} ar costa cel mult {credits}, peste limita de {limit} pentru un calcul. Nu s-a cheltuit nimic pentru ele.",
  "guard.fill": "Completează",
  "guard.dismiss": "Renunță",
  "guard.filling": "Se completează celulele oprite de limită…",
  "guard.filled": "Celulele FIRMA au fost recalculate. Credite cheltuite: {spent}.",
  "guard.filledErrors": "{cells} afișează încă erori.",
  "guard.dismissed": "Celulele oprite rămân cu mesajul lor; le puteți completa oricând cu Actualizare.",

  // cache
  "cache.full":
    "Cache-ul este plin: {evicted} au fost scoase din el (cele nefolosite de cel mai mult timp). Când vor fi cerute din nou, vor costa credite.",
  "cache.writeFailed":
    "Cache-ul nu a putut fi salvat: răspunsurile se păstrează doar până la închiderea Excel, apoi vor costa din nou credite.",
  "cache.readTimeout":
    "Cache-ul salvat nu a răspuns la timp: unele răspunsuri păstrate nu au fost citite și se vor cere din nou (cu credite).",
  "cache.readFailed": "Cache-ul salvat nu a putut fi citit: răspunsurile păstrate se vor cere din nou (cu credite).",
  "cache.idb.unavailable":
    "Memoria mare a add-in-ului (IndexedDB) nu poate fi folosită ({reason}): se păstrează doar cele mai recente răspunsuri (8 MB, OfficeRuntime.storage); celelalte vor costa credite după redeschidere.",
  "cache.idb.writeFailed":
    "Memoria mare a add-in-ului (IndexedDB) nu mai primește scrieri ({reason}): până la redeschidere se păstrează doar cele mai recente răspunsuri (8 MB, OfficeRuntime.storage).",
  "cache.idb.quota":
    "Browserul nu mai dă loc memoriei mari a add-in-ului (IndexedDB, spațiu liber: {free}): se păstrează doar cele mai recente răspunsuri (8 MB, OfficeRuntime.storage); celelalte vor costa credite după redeschidere.",
  "cache.idb.corrupt":
    "{shards} din memoria mare a add-in-ului (IndexedDB) nu au putut fi citite: răspunsurile din ele se iau din OfficeRuntime.storage sau se cer din nou (cu credite).",

  // usage
  "usage.note": "Numărate de FIRMA pe acest calculator, pentru cheia salvată; contorul oficial este al serviciului.",
  "usage.warn80.day":
    "Ați folosit {pct}% din limita zilnică. La 100%, celulele care cer date noi afișează #N/A până la miezul nopții (ora României).",
  "usage.warn80.month":
    "Ați folosit {pct}% din creditele lunii. La 100%, celulele care cer date noi afișează #N/A până la începutul lunii viitoare.",
  "usage.warn100.day":
    "Limita zilnică este atinsă: celulele care cer date noi afișează #N/A până la miezul nopții (ora României). Valorile deja aduse rămân.",
  "usage.warn100.month":
    "Creditele lunii s-au terminat: celulele care cer date noi afișează #N/A până la începutul lunii viitoare. Valorile deja aduse rămân.",

  // refresh
  "refresh.heading": "Actualizare",
  "refresh.excelOnly":
    "Actualizarea și înghețarea valorilor funcționează numai în Excel. Deschideți FIRMA din Excel pentru ele; cheia și consumul se pot gestiona și aici.",
  "refresh.unsupported":
    "Actualizarea din panou are nevoie de {set}, pe care acest Excel nu îl are; funcțiile FIRMA din celule merg în continuare. Actualizați Office pentru ea.",
  "refresh.noDependents":
    "Acest Excel nu poate recalcula de aici celulele care depind de cele FIRMA (lipsește ExcelApi 1.15): dacă vreuna a rămas în urmă, apăsați Ctrl+Alt+F9 (fără credite: datele sunt în cache).",

  // the watch on what changed: the list after a refresh, and the sheet it can be written to
  "changes.heading": "Ce s-a schimbat",
  "changes.none": "Nicio schimbare de stare, TVA, denumire sau adresă la firmele actualizate.",
  "changes.some": "Această actualizare a găsit {changes} la firmele urmărite:",
  "changes.more": "… și încă {changes}. Scrieți lista într-o foaie nouă ca să le vedeți pe toate.",
  "changes.write": "Scrie într-o foaie nouă",
  "changes.written": "Lista a fost scrisă în foaia nouă „{sheet}”.",
  "changes.writeFailed": "Foaia cu schimbările nu a putut fi scrisă ({reason}). Încercați din nou.",
  "changes.sheetName": "Schimbări FIRMA",
  "changes.col.cui": "CUI",
  "changes.col.company": "Firma",
  "changes.col.field": "Câmp",
  "changes.col.before": "Înainte",
  "changes.col.after": "După",
  "changes.col.beforeDate": "Valoare veche din",
  "changes.col.afterDate": "Aflat la",
  "changes.field.status": "Stare",
  "changes.field.vat": "Plătitor de TVA",
  "changes.field.name": "Denumire",
  "changes.field.address": "Adresă",
  "changes.field.county": "Județ",
  "changes.field.caen": "Cod CAEN principal",
  "changes.field.registry": "Nr. Registrul Comerțului",
  "changes.field.financialYear": "Ultimul an financiar publicat",
  "changes.yes": "da",
  "changes.no": "nu",

  "refresh.intro": "Aduce din nou datele de la serviciu. Costul se arată înainte de orice cheltuială.",
  "refresh.scope": "Ce se actualizează",
  "refresh.scopeAll": "Toate celulele FIRMA din registru",
  "refresh.scopeSelection": "Doar celulele selectate",
  "refresh.estimate": "Estimează costul",
  "refresh.run": "Actualizează",
  "refresh.scanning": "Se caută formulele FIRMA…",
  "refresh.estimateTitle": "Cost estimat",

  // est
  "est.formulas": "Formule FIRMA",
  "est.cuis": "CUI-uri distincte",
  "est.batches": "Apeluri (loturi)",
  "est.credits": "Credite de cheltuit",
  "est.left": "Credite rămase",
  "est.invalid": "Cu CUI sau an invalid (fără cost): {cells}.",
  "est.unestimable": "Fără estimare (argumente calculate de alte formule), dar recalculate și ele: {formulas}.",
  "est.age":
    "Datele din registru: cele mai vechi aduse la {oldest}, cele mai noi la {newest} (ora României). Actualizarea le aduce din nou.",
  "est.ageNone": "Datele din registru: nimic în cache încă.",
  "est.lists":
    "Liste (CAUTA, TOP, TOPURI, JUDETE) lăsate cum sunt în cache: {formulas}. Alegeți „Toate celulele FIRMA” ca să le aduceți din nou.",
  "est.noneAll": "Registrul nu conține formule FIRMA.",
  "est.noneSelection": "Selecția nu conține formule FIRMA.",

  // refresh
  "refresh.confirm":
    "Costul estimat ({credits}) depășește creditele rămase ({left}). Celulele pentru care nu ajung creditele vor afișa #N/A. Continuați?",
  "refresh.confirmAtMost":
    "Costul estimat (cel mult {credits}) depășește creditele rămase ({left}). Celulele pentru care nu ajung creditele vor afișa #N/A. Continuați?",

  // est
  "est.atMost": "cel mult {credits}",
  "est.atMostNote": "Cel mult: felul în care serviciul grupează cererile nu e încă știut; actualizarea nu va cheltui mai mult de atât.",
  "est.range": "{low} dacă serviciul răspunde la toate câmpurile, cel mult {high}",
  "est.rangeNote":
    "Nu se știe încă ce câmpuri dă serviciul în cererile grupate: actualizarea trimite întâi o cerere (1 credit, din buget), apoi știe costul exact al restului; nu cheltuie peste cifra de sus.",
  "refresh.confirmRange":
    "Costul estimat ({low} dacă serviciul răspunde la toate câmpurile, cel mult {credits}) depășește creditele rămase ({left}). Celulele pentru care nu ajung creditele vor afișa #N/A. Continuați?",
  "refresh.probed": "Prima cerere ({probe}) a arătat costul exact: restul costă {credits}.",
  "refresh.stoppedAfterProbe": "Actualizarea s-a oprit după prima cerere ({probe}); celelalte celule își păstrează valorile.",
  "refresh.probedConfirm":
    "Prima cerere ({probe}) a arătat costul exact: restul costă {credits}, mai mult decât creditele rămase ({left}). Celulele pentru care nu ajung creditele vor afișa #N/A. Continuați?",

  // refresh
  "refresh.confirmYes": "Actualizează oricum",
  "refresh.confirmNo": "Anulează",
  "refresh.cancelled": "Actualizarea a fost anulată; nu s-a cheltuit nimic.",
  "refresh.progressLabel": "Progresul actualizării",
  "refresh.progress": "Se actualizează… Formule gata: {done} din {total}. Credite cheltuite: {spent}.",
  "refresh.done": "Gata. Formule actualizate: {formulas}. Credite cheltuite: {spent} (estimat: {credits}).",
  "refresh.uncertain":
    "În cifra de mai sus intră și {calls} fără răspuns (conexiune întreruptă, timp depășit sau eroare a serviciului): serviciul poate să nu fi taxat atât.",
  "refresh.doneErrors": "{cells} afișează erori; treceți cu mouse-ul peste ele pentru detalii.",
  "refresh.stillBusy": "Excel încă recalculează {cells}; consumul de mai sus se actualizează singur.",
  "refresh.allFailed":
    "Actualizarea NU a reușit: {cause}. Nicio valoare nu a fost adusă din nou; celulele își păstrează valorile anterioare. Credite cheltuite: {spent}.",
  "refresh.partial":
    "Actualizare parțială: {ok} din {wanted} aduse din nou; {failed} nu ({cause}), celulele lor își păstrează valorile anterioare. Credite cheltuite: {spent} (estimat: {credits}).",
  "refresh.budgetLeft":
    "{failed} nu au încăput în bugetul confirmat de {credits}; nu s-a cheltuit mai mult. Apăsați „Continuă actualizarea” ca să vedeți cât costă restul.",
  "refresh.continue": "Continuă actualizarea",
  "refresh.continueConfirm": "Mai sunt {cells} de adus, cu un cost de {credits}. Continuați?",
  "refresh.continueNothing": "Nu a mai rămas nimic de adus.",

  // cause
  "cause.network": "serviciul nu poate fi contactat",
  "cause.timeout": "serviciul nu a răspuns la timp",
  "cause.server": "serviciul are o problemă (eroare de server)",
  "cause.creditsExhausted": "creditele planului s-au epuizat",
  "cause.firmBudget": "bugetul dvs. lunar pe serverul firmei s-a epuizat",
  "cause.firmDayLimit": "serverul firmei a atins plafonul zilnic de credite",
  "cause.budgetReached": "bugetul confirmat s-a atins",
  "cause.invalidKey": "serviciul a refuzat cheia API",
  "cause.missingKey": "lipsește cheia API",
  "cause.rateLimited": "serviciul a cerut o pauză (prea multe cereri)",
  "cause.budgetNoAnswer": "încercările permise de bugetul confirmat nu au primit un răspuns bun (serviciul pare să aibă probleme)",
  "cause.other": "serviciul a răspuns cu o eroare",

  // refresh
  "refresh.failed": "Registrul nu a putut fi citit sau recalculat ({code}). Încercați din nou.",

  // freeze
  "freeze.heading": "Înghețare la valori",
  "freeze.intro": "Înlocuiește formulele FIRMA din selecție cu valorile lor, ca să puteți trimite registrul cuiva care nu are cheie.",
  "freeze.run": "Îngheață selecția",
  "freeze.confirm": "Înlocuiți formulele FIRMA din selecție cu valorile lor? Operația nu se poate anula.",
  "freeze.yes": "Da, îngheață",
  "freeze.no": "Anulează",
  "freeze.unsupported": "Înghețarea are nevoie de {set}, pe care acest Excel nu îl are. Actualizați Office pentru ea.",
  "freeze.done": "Înlocuite cu valorile lor: {formulas}.",
  "freeze.none": "Selecția nu conține formule FIRMA.",
  "freeze.busy": "Unele celule din selecție încă se calculează: așteptați să se termine, apoi încercați din nou.",
  "freeze.cancelled": "Nimic nu a fost schimbat.",
  "freeze.cardsNote":
    "Acest Excel nu poate scrie înapoi fișele (îi lipsește ExcelApi 1.16): fișele FIRMA.FISA din selecție vor deveni textul lor, denumirea firmei.",
  "freeze.cardsTurnedText": "Fișe devenite text: {cards}.",
  "freeze.partial":
    "Înghețate: {formulas}; {left} au rămas formule, pentru că Excel a refuzat scrierea ({code}). Încercați din nou pentru restul.",

  // settings
  "settings.heading": "Setări",
  "settings.baseUrl": "Adresa serviciului",
  "settings.baseUrlHint": "Implicit: {url}. Este necesar https, cu excepția adreselor locale (127.0.0.1, localhost).",
  "settings.language": "Limba",
  "settings.langAuto": "Ca Office (acum: {lang})",
  "settings.langRo": "Română",
  "settings.langEn": "English",

  // lang
  "lang.ro": "română",
  "lang.en": "engleză",

  // settings
  "settings.window": "Fereastra de grupare (ms)",
  "settings.windowHint": "Cât așteaptă FIRMA alte celule ca să le ceară împreună: 0–5000, implicit 40. Se aplică de la următorul calcul.",
  "settings.guard": "Limită de credite pentru un calcul",
  "settings.linkedRefresh": "Actualizează firmele legate când pornește FIRMA (nu la deschiderea registrului)",
  "settings.guardHint":
    "Când Excel recalculează celule (lipire, copiere în jos, deschiderea registrului) care ar costa mai mult de atâtea credite, FIRMA le oprește și vă întreabă aici. Număr întreg ≥ 0; implicit 100; gol = fără limită.",
  "settings.advanced": "Avansat",
  "settings.advancedHint": "Pentru depanare și pentru serviciul de test; valorile implicite se potrivesc majorității utilizatorilor.",
  "settings.badGuard": "Limita de credite pentru un calcul trebuie să fie un număr întreg ≥ 0 (sau gol, fără limită).",
  "settings.save": "Salvează setările",
  "settings.linkedFailed": "Setările au fost salvate, dar Excel a refuzat tipul de date Firmă ({code}: {message}).",
  "settings.saved": "Setările au fost salvate.",
  "settings.badUrl": "Adresă invalidă: folosiți https://… (http doar pentru 127.0.0.1 sau localhost).",
  "settings.badWindow": "Fereastra de grupare trebuie să fie un număr întreg între 0 și 5000.",
  "settings.failed": "Setările nu au putut fi salvate.",

  // help
  "help.heading": "Ajutor: funcțiile FIRMA",
  "help.intro":
    "CUI-ul se scrie cu sau fără RO; în locul unui CUI puteți da un domeniu de celule, iar rezultatul are aceeași formă. Argumentele între [ ] se pot omite. Exemplele folosesc „;” între argumente, ca Excel-ul cu setări regionale românești; dacă Excel-ul dvs. folosește „,”, scrieți „,”.",
  "help.syntax": "Sintaxă",
  "help.example": "Exemplu",

  // noun
  "noun.credit": "credit|credite|de credite",
  "noun.cell": "celulă|celule|de celule",
  "noun.answer": "răspuns|răspunsuri|de răspunsuri",
  "noun.firmaFormula": "formulă FIRMA|formule FIRMA|de formule FIRMA",
  "noun.formula": "formulă|formule|de formule",
  "noun.call": "apel|apeluri|de apeluri",

  // cell
  "noun.change": "schimbare|schimbări|de schimbări",
  "noun.company": "firmă|firme|de firme",
  "cell.invalidCui": "CUI invalid (cifra de control sau formatul). Verificați codul.",
  "cell.emptyCui": "CUI lipsă: celula e goală; scrieți codul fiscal al firmei.",
  "cell.invalidYear": "An invalid: scrieți un an cu 4 cifre, din 1990 încoace, de ex. 2024.",
  "cell.invalidSlug": "Identificator de top invalid: copiați unul din FIRMA.TOPURI.",
  "cell.invalidLimit": "Limită invalidă: scrieți un număr întreg de la 1 la 1000.",
  "cell.invalidField":
    "Câmp necunoscut: folosiți un nume valid: denumire, stare, județ, localitate, adresa, caen_principal, platitor_tva, j_cod, cifra_afaceri, profit_net, active_totale, datorii_totale, numar_angajati.",
  "cell.invalidArgument": "Argument invalid: vedeți Ajutor în panoul FIRMA.",
  "cell.yearOutsidePlan": "Anul nu e inclus în istoricul planului dvs.; alegeți un an mai recent.",
  "cell.planHistory": "Anul nu e inclus în istoricul planului dvs.; alegeți un an mai recent.",
  "cell.yearUnavailable": "Nu există încă date pentru acest an; lăsați anul gol pentru ultimul an disponibil.",
  "cell.notFound": "Firma nu a fost găsită (CUI inexistent); verificați codul.",
  "cell.notFoundYear": "Nu există date financiare pentru acest an; încercați alt an (vezi FIRMA.ISTORIC).",
  "cell.notFoundRanking": "Topul nu există: alegeți unul din FIRMA.TOPURI.",
  "cell.invalidBaseUrl": "Adresa serviciului nu e acceptată: folosiți o adresă https în panoul FIRMA.",
  "cell.missingKey": "Lipsește cheia API: introduceți-o în panoul FIRMA.",
  "cell.invalidKey": "Cheie API invalidă: verificați-o în panoul FIRMA.",
  "cell.creditsExhausted": "Credite epuizate pentru perioada curentă; vedeți Consum în panou.",
  "cell.firmBudget": "Bugetul dvs. lunar pe serverul firmei s-a epuizat; cereți administratorului mai mult sau așteptați luna viitoare.",
  "cell.firmDayLimit": "Serverul firmei a atins plafonul zilnic de credite; se reia mâine, după miezul nopții.",
  "cell.badRequest": "Serviciul a respins cererea: verificați argumentele.",
  "cell.rateLimited":
    "Serverul firmei a primit prea multe cereri de la dvs. deodată; reîncercați peste câteva secunde cu Actualizare din panou.",
  "cell.unavailable": "Serviciu indisponibil; reîncercați cu Actualizare din panou.",
  "cell.timeout": "Serviciul nu a răspuns la timp; reîncercați cu Actualizare din panou.",
  "cell.aborted": "Calcul anulat.",
  "cell.budgetReached": "Bugetul de credite al actualizării s-a atins; măriți-l și reîncercați.",
  "cell.guardHeld": "Oprit de limita de credite: confirmați în panoul FIRMA pentru a completa.",
  "cell.preview": "Previzualizare: apăsați Enter pentru a aduce datele.",
  "cell.notCached": "Nu s-a primit răspuns pentru această celulă; reîncercați.",
  "cell.match.likely": "Probabil {name} (CUI {cui}), dar nu sigur: verificați și scrieți CUI-ul.",
  "cell.match.ambiguous": "Ambiguu: {count} firme se potrivesc; adăugați județul sau numele complet.",
  "cell.match.tooMany": "Prea multe firme se potrivesc (100 sau mai multe); adăugați cuvinte din nume sau județul.",
  "cell.match.notFound": "Nicio firmă cu acest nume; verificați numele.",
  "cell.match.otherCounty": "Nicio firmă cu acest nume în județul dat ({count} în alte județe); verificați județul.",
  "cell.match.emptyName": "Numele firmei lipsește: celula e goală.",
  "cell.match.badName": "Nu e un nume de firmă: „{input}”; scrieți denumirea firmei.",
  "cell.match.unknownCounty": "Județ necunoscut: „{county}”; scrieți codul (BC) sau numele (Bacău).",

  // header
  "header.profil": "CUI|Denumire|Stare|Județ|Localitate|Adresă|CAEN|Plătitor TVA|Nr. Reg. Com.",
  "header.financiar": "An|Cifra de afaceri|Profit net|Active totale|Datorii totale|Angajați",
  "header.cauta": "CUI|Denumire|Județ|Localitate|Stare|CAEN|Nr. Reg. Com.",
  "header.topuri": "Identificator|Titlu|An|Categorie|Scop",
  "header.top": "Poziție|CUI|Denumire|Valoare|Variație %",
  "header.judete": "Cod|Județ|Firme active",

  // formula
  "formula.whole.function": "funcția {name} nu poate fi calculată fără Excel",
  "formula.whole.intersection": "formula folosește operatorul @",
  "formula.whole.chained": "argumentele depind de prea multe apeluri FIRMA înlănțuite",
  "formula.reason.syntax": "formula nu poate fi citită",
  "formula.reason.unknownSheet": "foaia din referință nu există",

  // cell: the precise cause the engine found (EngineMessageKey in src/engine/local-errors.ts)
  "cell.inputError.cui": "Celula cu CUI-ul conține eroarea {code}: corectați acea celulă.",
  "cell.inputError.argument": "Un argument al funcției este eroarea {code}: corectați celula din care vine.",
  "cell.invalidCui.card": "Fișa „{input}” nu are un CUI: dați CUI-ul firmei sau o fișă FIRMA.FISA.",
  "cell.invalidCui.dataType": "O valoare de tip {input} nu este un CUI: dați CUI-ul firmei (cifre, cu sau fără RO).",
  "cell.invalidCui.format": "CUI invalid („{input}”): doar cifre, opțional cu prefixul RO. Verificați codul.",
  "cell.invalidCui.length": "CUI invalid („{input}”): un CUI are între 2 și 10 cifre. Verificați codul.",
  "cell.invalidCui.control": "CUI invalid („{input}”): cifra de control nu se potrivește. Verificați codul.",
  "cell.invalidYear.input": "An invalid („{input}”): scrieți un an cu 4 cifre, din 1990 încoace, de ex. 2024.",
  "cell.invalidYear.beforeEarliest": "An invalid ({year}): datele încep în {earliest}; scrieți un an din {earliest} încoace.",
  "cell.yearUnavailable.later":
    "Nu există încă date pentru anul {year} (ultimul an cu date: {latest}); lăsați anul gol pentru ultimul an disponibil.",
  "cell.yearOutsidePlan.plan":
    "Anul {year} nu e inclus în istoricul planului {plan} ({oldest}–{latest}); alegeți un an mai recent sau un plan mai mare.",

  // card: FIRMA.FISA's sections
  "card.identity": "Identificare",
  "card.status": "Stare",
  "card.address": "Sediu",
  "card.activity": "Activitate",
  "card.finances": "Date financiare",
  "card.year": "An financiar",
  "cell.unreachableCrossOrigin":
    "Serviciul nu a putut fi contactat din add-in: e oprit, sau nu permite apeluri din adresa add-in-ului (CORS). Verificați adresa din panou; dacă e corectă, cereți administratorului să servească FIRMA cu firma serve.",
} as const;

export type MessageKey = keyof typeof ro;
