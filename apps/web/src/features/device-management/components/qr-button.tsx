import { useState } from 'react';
import { Button } from 'antd';
import { QrcodeOutlined } from '@ant-design/icons';
import { dmApi } from '../api';

/** Downloads the device's QR label (SVG) for printing. */
export function QrButton({ device }: { device: { id: number; deviceCode: string } }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button type="link" size="small" icon={<QrcodeOutlined />} loading={busy} onClick={async () => {
      setBusy(true);
      try {
        await dmApi.qrCode(device.id, device.deviceCode);
      } catch {
        // the HTTP client showed the reason
      } finally {
        setBusy(false);
      }
    }}>二维码</Button>
  );
}
