import { isAcceptedLogo, isBuiltIn, isValidColor, pdfFormChanged, pdfFormProblem } from './logo-rules';

describe('logo and PDF rules', () => {
  it('accepts 6 hex digits with an optional #', () => {
    expect(['#1F4E8C', '1f4e8c'].every(isValidColor)).toBe(true);
    expect(['#1F4E8', 'blue', '#GGGGGG', '#1F4E8CC'].some(isValidColor)).toBe(false);
  });
  it('flags a missing or bad colour with clients.colorFormat first, then needs both footers', () => {
    const form = { primaryColor: 'zzz', footer1: 'a', footer2: 'b', subRenewUrl: '' };
    expect(pdfFormProblem(form)).toBe('clients.colorFormat');
    // a wrong colour is named as such even when a footer is empty too
    expect(pdfFormProblem({ ...form, footer2: ' ' })).toBe('clients.colorFormat');
    expect(pdfFormProblem({ ...form, primaryColor: '' })).toBe('clients.colorFormat');
    expect(pdfFormProblem({ ...form, primaryColor: '#000000', footer2: ' ' })).toBe(
      'clients.pdfFieldsRequired',
    );
    expect(pdfFormProblem({ ...form, primaryColor: '#000000' })).toBeNull();
    expect(pdfFormChanged(form, { ...form })).toBe(false);
    expect(pdfFormChanged(form, { ...form, footer1: 'c' })).toBe(true);
  });
  it('accepts png, jpg and jpeg only; negative ids are built in', () => {
    expect(isAcceptedLogo({ name: 'a.PNG', type: 'image/png' })).toBe(true);
    expect(isAcceptedLogo({ name: 'a.jpeg', type: 'image/jpeg' })).toBe(true);
    expect(isAcceptedLogo({ name: 'a.gif', type: 'image/gif' })).toBe(false);
    expect(isBuiltIn({ id: -1 })).toBe(true);
    expect(isBuiltIn({ id: 3 })).toBe(false);
  });
});
