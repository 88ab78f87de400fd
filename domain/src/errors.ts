/** The spec's error catalogue (SPEC §8): code → HTTP status and i18n key (`errors.<code>`). */
export const ERROR_CATALOGUE = {
  G001: { status: 500, message: 'Errore interno del server, riprovare più tardi' },
  G002: { status: 503, message: 'Errore di comunicazione con il database, contattare l’assistenza' },
  G003: { status: 502, message: 'Errore nell’invio dell’email, verificare l’indirizzo del destinatario' },
  G007: { status: 503, message: 'Sito RNA temporaneamente non disponibile' },
  J001: { status: 400, message: 'Errore di comunicazione con il server' },
  J002: { status: 400, message: 'Errore di comunicazione con il server' },
  J003: { status: 413, message: 'Errore di comunicazione con il server' },
  J004: { status: 415, message: 'Errore di comunicazione con il server' },
  J005: { status: 404, message: 'Errore di comunicazione con il server' },
  A001: { status: 401, message: 'Credenziali non valide' },
  A002: { status: 403, message: 'Abbonamento scaduto' },
  A003: { status: 429, message: 'Troppi tentativi di accesso: riprovare più tardi' },
  /** Signed in with the invitation code: nothing but choosing a new password until then. */
  A004: {
    status: 403,
    message: 'Al primo accesso è necessario scegliere una nuova password, diversa dal codice di invito',
  },
  P001: { status: 403, message: 'Permesso negato per questa risorsa' },
  U001: { status: 404, message: 'Utente non trovato' },
  U002: { status: 409, message: 'Esiste già un utente con questa email' },
  U003: { status: 400, message: 'Codice non valido o scaduto' },
  U004: { status: 429, message: 'Ricerche disponibili esaurite' },
  T001: { status: 400, message: 'Codice fiscale non trovato nella richiesta' },
  T002: { status: 400, message: 'Il termine di ricerca deve avere almeno 11 caratteri' },
  C001: { status: 400, message: 'Le password non coincidono' },
  C002: { status: 400, message: 'È necessario prendere visione del documento di responsabilità' },
  F001: { status: 400, message: 'Errore nel caricamento del file' },
  F002: { status: 400, message: 'Errore nella cancellazione del file' },
  S001: { status: 409, message: 'Una sincronizzazione è già in corso' },
  Q001: { status: 429, message: 'Troppe richieste in poco tempo: riprovare tra qualche secondo' },
  V001: { status: 409, message: 'Raggiunto il numero massimo di avvisi di variazione' },
  B001: { status: 415, message: 'Il file non è un foglio Excel (.xlsx) o un file CSV' },
  B002: { status: 400, message: 'Il file è protetto da password o danneggiato' },
  B003: { status: 400, message: 'L’elenco supera i 5.000 codici fiscali' },
  B004: { status: 413, message: 'Il file supera i 5 MB' },
  B005: { status: 400, message: 'Nessun codice fiscale trovato nell’elenco' },
  B006: { status: 410, message: 'Il risultato della ricerca massiva non è più disponibile' },
  B007: { status: 404, message: 'Ricerca massiva non trovata' },
  B008: {
    status: 503,
    message: 'La ricerca massiva si è interrotta prima dell’addebito: nulla è stato addebitato',
  },
  B009: { status: 413, message: 'Il file decompresso supera i 64 MB' },
  B010: { status: 429, message: 'Ci sono già 3 ricerche massive in attesa o in corso' },
  B011: { status: 429, message: 'Raggiunto il numero di ricerche massive gratuite ripetute di oggi' },
  B012: { status: 507, message: 'Spazio per i risultati delle ricerche massive esaurito' },
  D001: { status: 400, message: 'La data prevista deve essere dal 01-01-2024 (Reg. UE 2023/2831)' },
  D002: { status: 400, message: 'Regime de minimis non riconosciuto' },
  I001: { status: 409, message: 'Raggiunto il numero massimo di imprese uniche' },
  I002: { status: 400, message: 'Impresa unica non valida' },
  I003: { status: 404, message: 'Impresa unica non trovata' },
  R001: { status: 400, message: 'Codice di verifica non valido: controllare di averlo copiato per intero' },
  R002: { status: 404, message: 'Il portale non ha emesso alcun documento con questo codice' },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** What the API answers on any failure: `{code, message}`. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
}

export function errorStatus(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].status;
}

export function errorI18nKey(code: ErrorCode): string {
  return `errors.${code}`;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CATALOGUE, value);
}

/** A failure with one of the spec's codes; thrown by handlers, mapped to HTTP by the API. */
export class DomainError extends Error {
  constructor(
    public readonly code: ErrorCode,
    message?: string,
  ) {
    super(message ?? ERROR_CATALOGUE[code].message);
    this.name = 'DomainError';
  }
}
