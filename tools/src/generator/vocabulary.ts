/** Realistic values seen in register files (measures, grantors, procedures, regions, sectors). */
export const REGIONS = [
  'Lombardia', 'Lazio', 'Campania', 'Sicilia', 'Veneto', 'Emilia-Romagna', 'Piemonte', 'Puglia',
  'Toscana', 'Calabria', 'Sardegna', 'Liguria', 'Marche', 'Abruzzo', 'Friuli-Venezia Giulia',
  'Trentino-Alto Adige', 'Umbria', 'Basilicata', 'Molise', "Valle d'Aosta", 'Estero',
]; // prettier-ignore

export const COMPANY_WORDS = [
  'Società Agricola', 'Officina Meccanica', 'Caffè', 'Pasticceria', 'Tipografia', 'Edilizia',
  'Trasporti', 'Servizi Informatici', 'Farmacia', 'Albergo', 'Ristorante Là Giù', 'Calzaturificio',
  'Cantina Sociale', 'Ceramiche', 'Lavanderia', 'Studio Tecnico', 'Autofficina Perché No',
]; // prettier-ignore
export const COMPANY_NAMES = [
  'Rossi', 'Bianchi', 'Esposito', 'Ferrari', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco',
  'Bruno', 'Gallo', 'Conti', 'De Luca', 'Mancini', 'Costa', 'Giordano', 'Rizzo', 'Lombardi',
  'Moretti', 'Barbieri', 'Fontana', 'Santoro', 'Mariani', 'Rinaldi', 'Caruso', 'Ferrara', 'Niccolò',
]; // prettier-ignore
export const LEGAL_FORMS = ['S.R.L.', 'S.P.A.', 'S.N.C.', 'S.A.S.', "SOCIETA' COOPERATIVA", 'S.R.L.S.'];
export const SIZES = [
  'Micro impresa',
  'Piccola impresa',
  'Media impresa',
  'Grande impresa',
  'Persona fisica',
];

export const GRANTORS = [
  'MINISTERO DELLE IMPRESE E DEL MADE IN ITALY',
  'REGIONE LOMBARDIA - DIREZIONE GENERALE SVILUPPO ECONOMICO',
  'AGENZIA DELLE ENTRATE',
  'INVITALIA - AGENZIA NAZIONALE PER L\'ATTRAZIONE DEGLI INVESTIMENTI E LO SVILUPPO D\'IMPRESA SPA',
  'MEDIOCREDITO CENTRALE S.P.A. - FONDO DI GARANZIA',
  'CAMERA DI COMMERCIO DI FORLÌ-CESENA',
  'REGIONE SICILIANA - ASSESSORATO ATTIVITÀ PRODUTTIVE',
  'SIMEST S.P.A.',
  'INAIL - ISTITUTO NAZIONALE PER L\'ASSICURAZIONE CONTRO GLI INFORTUNI SUL LAVORO',
]; // prettier-ignore

export const MEASURE_TYPES = ['Regime di aiuti', 'Aiuto ad hoc', 'Aiuto individuale'];
export const OBJECTIVES: readonly [string, string][] = [
  ['10', 'Aiuti alle PMI'],
  ['20', 'Ricerca, sviluppo e innovazione'],
  ['30', 'Occupazione'],
  ['40', 'Tutela dell\'ambiente e risparmio energetico'],
  ['50', 'Formazione'],
  ['60', 'Sviluppo regionale'],
  ['70', 'Calamità naturali'],
]; // prettier-ignore
export const SECTORS = [
  'I.56.1',
  'C.25.62',
  'F.41.2',
  'G.47.11',
  'A.01.11',
  'M.71.12',
  'H.49.41',
  'C.10.71',
  'J.62.01',
];
export const INSTRUMENTS: readonly [string, string][] = [
  ['1', 'Sovvenzione/Contributo in conto interessi'],
  ['2', 'Garanzia'],
  ['3', 'Prestito / Anticipo rimborsabile'],
  ['6', 'Agevolazione fiscale o esenzione fiscale'],
];

export interface Procedure {
  code: '1' | '2' | '3';
  description: string;
  regulation: string;
  regulationDescription: string;
}
export const DE_MINIMIS_2024: Procedure = {
  code: '1',
  description: 'De Minimis',
  regulation: 'CE2831/23',
  regulationDescription: 'Regolamento (UE) 2023/2831 de minimis generale',
};
export const DE_MINIMIS_2013: Procedure = {
  code: '1',
  description: 'De Minimis',
  regulation: 'CE1407/13',
  regulationDescription: 'Regolamento (UE) n. 1407/2013 de minimis generale',
};
export const DE_MINIMIS_SIEG: Procedure = {
  code: '1',
  description: 'De Minimis',
  regulation: 'CE2832/23',
  regulationDescription: 'Regolamento (UE) 2023/2832 de minimis SIEG',
};
export const NOTIFIED: Procedure = {
  code: '2',
  description: 'Notifica',
  regulation: 'SA.57021',
  regulationDescription: 'Quadro temporaneo per le misure di aiuto di Stato a sostegno dell\'economia',
}; // prettier-ignore
export const EXEMPTED: Procedure = {
  code: '3',
  description: 'Esenzione',
  regulation: 'CE651/14',
  regulationDescription: 'Regolamento (UE) n. 651/2014 di esenzione per categoria',
};

export const LOREM =
  'Il progetto prevede la realizzazione di investimenti produttivi, l\'acquisto di macchinari e attrezzature, ' +
  'la digitalizzazione dei processi aziendali e la formazione del personale; l\'iniziativa è coerente con le ' +
  'finalità della misura & con i criteri di ammissibilità <previsti> dal bando. '; // prettier-ignore
