import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { DEVICE_TYPE_BY_CODE, fieldOf } from '@kelvin/contracts/device-registry';
import type { FieldValue } from '@kelvin/contracts/device';
import { FieldInput, checkFieldValue, type FieldLimitsFrom } from './field-input';

const def = DEVICE_TYPE_BY_CODE.get('device20020')!;
const setPoint = fieldOf(def, 'f04')!;
const device = { f04: 22, f12: 5, f13: 35 };

function Harness({ limitsFrom, initial }: { limitsFrom: FieldLimitsFrom; initial?: FieldValue }) {
  const [value, setValue] = useState<FieldValue | undefined>(initial);
  return (
    <>
      <FieldInput def={def} field={setPoint} value={value} onChange={setValue} limitsFrom={limitsFrom} />
      <output data-testid="value">{String(value)}</output>
    </>
  );
}

afterEach(cleanup);

describe('the shared field input', () => {
  it('shows the registry range narrowed by the device\'s own limit (f13 = 35)', () => {
    render(<Harness limitsFrom={[device]} />);
    expect(screen.getByText('允许：10～35 °C，步长 0.5')).toBeTruthy();
  });

  it('refuses a value above the device limit in the form, with the range, and never clamps it', () => {
    render(<Harness limitsFrom={[device]} />);
    const input = screen.getByRole('spinbutton', { name: '设定温度' });
    fireEvent.change(input, { target: { value: '45' } });
    fireEvent.blur(input);
    expect(screen.getByTestId('value').textContent).toBe('45');
    expect(screen.getByRole('alert').textContent).toBe('「设定温度」取值范围为 10～35 °C，步长 0.5');
    fireEvent.change(input, { target: { value: '40' } });
    fireEvent.blur(input);
    // 40 is inside the registry's 10～40 but above this device's 35
    expect(screen.getByTestId('value').textContent).toBe('40');
    expect(screen.getByRole('alert').textContent).toContain('10～35 °C');
  });

  it('a batch write fits every device: the tightest limits of all of them', () => {
    render(<Harness limitsFrom={[device, { f12: 12, f13: 30 }, {}]} />);
    expect(screen.getByText('允许：12～30 °C，步长 0.5')).toBeTruthy();
  });

  it('checkFieldValue is the check the send buttons use: same range, nothing for an empty input', () => {
    expect(checkFieldValue(def, setPoint, undefined, [device])).toBeNull();
    expect(checkFieldValue(def, setPoint, 35, [device])).toMatchObject({ ok: true, value: 35 });
    expect(checkFieldValue(def, setPoint, 35.5, [device])).toMatchObject({ ok: false, message: '「设定温度」取值范围为 10～35 °C，步长 0.5' });
    // without device values it is the registry range the server applies
    expect(checkFieldValue(def, setPoint, 40, [])).toMatchObject({ ok: true });
  });

  it('time fields use the one time picker in every screen', () => {
    render(<FieldInput def={def} field={fieldOf(def, 'f28')!} value="07:30" onChange={() => {}} />);
    expect((screen.getByPlaceholderText('HH:MM') as HTMLInputElement).value).toBe('07:30');
  });
});
