import { Button, Space } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { LEDGER_KINDS, TOPUP_METHODS, type ReceiptDto } from '@kelvin/contracts';
import { formatDateTime } from '../../../lib/time';
import { AppModal } from '../../../lib/ui';
import { formatFen } from '../money';
import './receipt.css';

/** The printed receipt of a top-up (收款收据): number, account, rooms, amount in 元 and 大写, operator, time. */
export function Receipt({ r }: { r: ReceiptDto }) {
  return (
    <div className="kv-receipt" data-testid="receipt">
      <h3>{LEDGER_KINDS[r.kind]}收据</h3>
      <div className="kv-receipt-no">编号：{r.receiptNo}</div>
      <table>
        <tbody>
          <tr><th>项目</th><td colSpan={3}>{r.projectName}</td></tr>
          <tr><th>缴款账户</th><td>{r.accountName}</td><th>账户编号</th><td>{r.accountId}</td></tr>
          <tr><th>房间</th><td colSpan={3}>{r.rooms.length ? r.rooms.join('、') : '—'}</td></tr>
          <tr><th>金额（小写）</th><td>¥{formatFen(r.amountFen)} 元</td><th>支付方式</th><td>{r.method ? TOPUP_METHODS[r.method] : '—'}</td></tr>
          <tr><th>金额（大写）</th><td colSpan={3} data-testid="receipt-words">{r.amountInWords}</td></tr>
          <tr><th>{r.kind === 'topup' ? '充值后余额' : '余额'}</th><td colSpan={3}>{formatFen(r.balanceAfterFen)} 元</td></tr>
        </tbody>
      </table>
      <div className="kv-receipt-foot">
        <span>经办人：{r.operator ?? '—'}</span>
        <span>时间：{formatDateTime(r.createdAt)}</span>
      </div>
    </div>
  );
}

export function ReceiptModal({ receipt, onClose }: { receipt: ReceiptDto | null; onClose: () => void }) {
  return (
    <AppModal open={!!receipt} title="收据" width={640} onCancel={onClose} footer={(
      <Space className="kv-receipt-actions">
        <Button onClick={onClose}>关闭</Button>
        <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>打印</Button>
      </Space>
    )}>
      {receipt && <Receipt r={receipt} />}
    </AppModal>
  );
}
